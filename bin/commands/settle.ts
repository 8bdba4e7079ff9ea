import { setTimeout as sleep } from 'node:timers/promises';
import { CLUSTER_RESOURCE_BINDING, RESOURCE_BINDING } from '../../lib/api/kinds';
import { CONDITION_SCHEDULED, findCondition, isSuspended, type ResourceBinding } from '../../lib/api/resource-binding';
import { QUEUE_STATUS_PATH, type QueueStatusList } from '../../lib/http/queue-status';
import { isNotFound, type ApiClient } from '../client/api-client';
import { CliError } from '../client/cli-error';
import { listAll } from '../client/list-all';
import { bindingState } from '../../lib/format/columns';

/** Two equal lists this far apart mean the controllers have nothing left in flight that would change one. */
const POLL_INTERVAL_MS = 500;
const SHOWN_UNSETTLED = 5;

/**
 * Settled: suspended, placed for its current spec (the scheduler observed its generation), or found
 * unschedulable (it waits for the reconcile). A binding without a Scheduled condition is still queued.
 */
function isSettled(binding: ResourceBinding): boolean {
  if (isSuspended(binding)) return true;
  const scheduled = findCondition(binding, CONDITION_SCHEDULED);
  if (scheduled?.status === 'False') return true;
  return scheduled?.status === 'True' && binding.status?.schedulerObservedGeneration === binding.metadata.generation;
}

async function listBindings(client: ApiClient): Promise<ResourceBinding[]> {
  return (await Promise.all([RESOURCE_BINDING, CLUSTER_RESOURCE_BINDING].map((info) => listAll<ResourceBinding>(client, info)))).flat();
}

/** True when no queue holds work; a server that does not report its queues counts as idle. */
async function queuesIdle(client: ApiClient): Promise<boolean> {
  try {
    const status = await client.get<QueueStatusList>(QUEUE_STATUS_PATH);
    return status.items.every((queue) => queue.visible === 0 && queue.inFlight === 0);
  } catch (error) {
    if (isNotFound(error)) return true;
    throw error;
  }
}

function fingerprint(bindings: readonly ResourceBinding[]): string {
  return bindings.map((b) => `${b.kind}/${b.metadata.namespace ?? ''}/${b.metadata.name}@${b.metadata.resourceVersion ?? ''}`).join(',');
}

function timedOut(timeoutMs: number, unsettled: readonly ResourceBinding[]): CliError {
  const waiting = `timed out after ${timeoutMs / 1000}s waiting for the bindings to settle`;
  if (unsettled.length === 0) return new CliError(`error: ${waiting}: they kept changing`);
  const names = unsettled.slice(0, SHOWN_UNSETTLED).map((b) => `${b.metadata.namespace ? `${b.metadata.namespace}/` : ''}${b.metadata.name} (${bindingState(b)})`);
  const more = unsettled.length > SHOWN_UNSETTLED ? `, and ${unsettled.length - SHOWN_UNSETTLED} more` : '';
  return new CliError(`error: ${waiting}: ${unsettled.length} not scheduled yet: ${names.join(', ')}${more} (raise --timeout, or check the scheduler's logs)`);
}

/**
 * Waits until no queue holds work, every binding is settled, and the bindings stayed the same over
 * one poll interval. The queues show work the bindings do not yet: a template just applied gets its
 * binding only once the policy controller has run, and a preempted victim is queued again.
 */
export async function waitUntilSettled(client: ApiClient, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let previous: string | undefined;
  for (;;) {
    const bindings = await listBindings(client);
    const unsettled = bindings.filter((b) => !isSettled(b));
    const current = fingerprint(bindings);
    if (unsettled.length === 0 && current === previous && (await queuesIdle(client))) return;
    if (Date.now() + POLL_INTERVAL_MS > deadline) throw timedOut(timeoutMs, unsettled);
    previous = current;
    await sleep(POLL_INTERVAL_MS);
  }
}
