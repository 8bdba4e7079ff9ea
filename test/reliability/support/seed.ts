import { SYSTEM_KINDS, TEMPLATE_KINDS, type KindInfo } from '../../../lib/api/kinds';
import { apiGroupOf } from '../../../lib/api/resource-template';
import { bindingGroupId, type QueuedBinding } from '../../../lib/controllers/messages';
import type { MessageQueue, OutgoingMessage } from '../../../lib/ports/message-queue';
import type { StoredObject, Write } from '../../../lib/ports/object-store';
import { allocationAdds, type ClusterAllocation } from '../../../lib/controllers/allocations';
import { MemorySystem } from '../../../lib/runtime/memory-system';
import { DynamoDbObjectStore } from '../../../functions/adapters/dynamodb-object-store';
import type { TestAws } from '../../support/aws';

/** DynamoDB's limit on the items of one TransactWriteItems. */
const TRANSACTION_ITEMS = 100;

/** Hands every message of an in-memory queue to `handle`; returns how many there were. */
export async function drain<T>(queue: MessageQueue<T>, handle: (body: T) => Promise<void>): Promise<number> {
  let handled = 0;
  for (let deliveries = await queue.receive(10); deliveries.length > 0; deliveries = await queue.receive(10)) {
    for (const delivery of deliveries) await handle(delivery.body);
    await queue.delete(deliveries.map((delivery) => delivery.receipt));
    handled += deliveries.length;
  }
  return handled;
}

export interface SeededWork {
  /** The band messages binding-enqueue sent, by band name, for the caller to send on at its own pace. */
  readonly bandMessages: ReadonlyMap<string, OutgoingMessage<QueuedBinding>[]>;
}

/**
 * Applies the manifests and lets the real policy-change and binding-enqueue controllers make and queue
 * the bindings, on in-memory ports, then copies the objects into the table. Nothing is scheduled: each
 * scheduling decision is left to the functions under test. This is for speed on the emulator, which
 * answers one call at a time: through the API each binding costs some twenty calls. For the same
 * reason the templates stay behind (scheduling never reads them). The table's stream announces
 * these writes: whatever reads it must start at its end (a policy-change that heard of the policies
 * would remove the bindings of the missing templates).
 */
export async function seedBindings(aws: TestAws, manifests: readonly unknown[]): Promise<SeededWork> {
  const system = new MemorySystem();
  for (const manifest of manifests) await system.objects.apply(manifest);
  await drain(system.policyChangeQueue, (change) => system.policyChange.handle(change));
  await drain(system.bindingEnqueueQueue, (request) => system.bindingEnqueue.handle(request));

  await copyToTable(aws, system, SYSTEM_KINDS);

  const bandMessages = new Map<string, OutgoingMessage<QueuedBinding>[]>();
  for (const [band, queue] of system.bandQueues) {
    const messages: OutgoingMessage<QueuedBinding>[] = [];
    await drain(queue, async (body) => {
      messages.push({ body, groupId: bindingGroupId(body.binding), deduplicationId: `${bindingGroupId(body.binding)}@seeded` });
    });
    bandMessages.set(band, messages);
  }
  return { bandMessages };
}

/** An object written as the system writes it: an allocation record by its add (none when it holds nothing), anything else by a put. */
function copyWrites(object: StoredObject): Write[] {
  if (object.kind !== 'ClusterAllocation') return [{ op: 'put', object, expectedVersion: null }];
  const { metadata, spec } = object as ClusterAllocation;
  return allocationAdds(new Map([[metadata.name, spec.placed]]), { now: metadata.creationTimestamp ?? new Date().toISOString() });
}

/** Copies every stored object of these kinds from the in-memory system into the table. */
async function copyToTable(aws: TestAws, system: MemorySystem, kinds: readonly KindInfo[]): Promise<void> {
  const objects: StoredObject[] = [];
  for (const info of kinds) objects.push(...(await system.store.list(apiGroupOf(info.apiVersion), info.kind)));
  const store = new DynamoDbObjectStore(aws.clients.documents, aws.resources.objectsTable);
  for (let start = 0; start < objects.length; start += TRANSACTION_ITEMS) {
    await store.transact(objects.slice(start, start + TRANSACTION_ITEMS).flatMap(copyWrites));
  }
}

/**
 * The state the system reaches from these manifests, reached in memory and copied into the table
 * (templates, bindings as placed, allocations): a settled starting point in a few calls.
 */
export async function restoreSettled(aws: TestAws, manifests: readonly unknown[]): Promise<void> {
  const system = new MemorySystem();
  for (const manifest of manifests) await system.objects.apply(manifest);
  await system.runUntilIdle();
  await copyToTable(aws, system, [...SYSTEM_KINDS, ...TEMPLATE_KINDS]);
}
