import type { Queues } from '../controllers/context';
import type { ApiResponse } from './api-types';
import { jsonResponse } from './response';

/** Where the queues' depths are served: not a Kubernetes resource, so outside /apis. */
export const QUEUE_STATUS_PATH = '/outrank/v1/queues';

/**
 * How much work is queued or in progress, per queue. All zeros means the controllers are idle, which
 * is how `outrank apply` knows a step has settled.
 */
export async function queueStatus(queues: Queues): Promise<ApiResponse> {
  const named = [
    ['policy-change', queues.policyChange] as const,
    ['binding-enqueue', queues.bindingEnqueue] as const,
    ...[...queues.bands].map(([band, queue]) => [`schedule-${band}`, queue] as const),
  ];
  const items = await Promise.all(named.map(async ([name, queue]) => ({ name, ...(await queue.depth()) })));
  return jsonResponse(200, { kind: 'QueueStatusList', apiVersion: 'outrank.io/v1', items });
}
