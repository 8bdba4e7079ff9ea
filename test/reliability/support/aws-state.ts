import { GetQueueUrlCommand } from '@aws-sdk/client-sqs';
import type { Cluster } from '../../../lib/api/cluster';
import type { ResourceBinding } from '../../../lib/api/resource-binding';
import type { SystemState } from '../../../lib/check/invariants';
import type { ClusterAllocation } from '../../../lib/controllers/allocations';
import { systemClock } from '../../../lib/ports/clock';
import type { QueueDepth } from '../../../lib/ports/message-queue';
import { DynamoDbEventLog } from '../../../functions/adapters/dynamodb-event-log';
import { DynamoDbObjectStore } from '../../../functions/adapters/dynamodb-object-store';
import type { QueueDefinition } from '../../../functions/adapters/definitions';
import { SqsMessageQueue } from '../../../functions/adapters/sqs-message-queue';
import type { TestAws } from '../../support/aws';

/** Everything the invariant checker needs, read back through the same adapters the functions write with. */
export async function readSystemState(aws: TestAws): Promise<SystemState> {
  const store = new DynamoDbObjectStore(aws.clients.documents, aws.resources.objectsTable);
  const [clusters, namespaced, clusterScoped, allocations, events] = await Promise.all([
    store.list<Cluster>('cluster.karmada.io', 'Cluster'),
    store.list<ResourceBinding>('work.karmada.io', 'ResourceBinding'),
    store.list<ResourceBinding>('work.karmada.io', 'ClusterResourceBinding'),
    store.list<ClusterAllocation>('scheduling.outrank.io', 'ClusterAllocation'),
    new DynamoDbEventLog(aws.clients.documents, aws.resources.eventsTable, systemClock).list(),
  ]);
  return { clusters, bindings: [...namespaced, ...clusterScoped], allocations, events };
}

/** Every queue the functions consume: policy-change, binding-enqueue, schedule-tick and the bands. */
export function queueUrls(aws: TestAws): string[] {
  const { resources } = aws;
  return [resources.policyChangeQueueUrl, resources.bindingEnqueueQueueUrl, resources.scheduleTickQueueUrl, ...Object.values(resources.bandQueueUrls)];
}

export async function depthOf(aws: TestAws, url: string): Promise<QueueDepth> {
  return new SqsMessageQueue(aws.clients.sqs, url, url).depth();
}

/** Messages held by every queue, visible or in flight (being handled, or waiting out a backoff or a visibility timeout). */
export async function messagesHeld(aws: TestAws): Promise<number> {
  const depths = await Promise.all(queueUrls(aws).map((url) => depthOf(aws, url)));
  return depths.reduce((sum, depth) => sum + depth.visible + depth.inFlight, 0);
}

export async function deadLetterUrl(aws: TestAws, queue: QueueDefinition): Promise<string> {
  const { QueueUrl } = await aws.clients.sqs.send(new GetQueueUrlCommand({ QueueName: queue.deadLetterName }));
  return QueueUrl!;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until no queue holds a message, twice in a row: every handler keeps its message until the
 * work it starts is queued elsewhere, so empty queues mean no work is left anywhere.
 */
/**
 * Waits until the table holds this many bindings: writes reach policy-change through the table's
 * stream, which no queue depth shows. Throws after `timeoutMs`.
 */
export async function waitForBindings(aws: TestAws, count: number, timeoutMs: number, pollMs = 500): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { bindings } = await readSystemState(aws);
    if (bindings.length >= count) return;
    if (Date.now() > deadline) throw new Error(`${bindings.length} of ${count} bindings after ${timeoutMs} ms`);
    await sleep(pollMs);
  }
}

export async function waitUntilDrained(aws: TestAws, pollMs = 250): Promise<void> {
  for (let empty = 0; empty < 2; ) {
    await sleep(pollMs);
    empty = (await messagesHeld(aws)) === 0 ? empty + 1 : 0;
  }
}
