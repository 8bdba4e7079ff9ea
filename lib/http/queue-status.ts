import type { PriorityBand } from '../config';
import type { ObservedQueue } from '../ports/message-queue';
import type { ApiResponse } from './api-types';
import { jsonResponse } from './response';

/** Where the queues' depths are served: not a Kubernetes resource, so outside /apis. */
export const QUEUE_STATUS_PATH = '/outrank/v1/queues';

/** The body of GET /outrank/v1/queues. */
export interface QueueStatusList {
  readonly kind: 'QueueStatusList';
  readonly items: ReadonlyArray<{ readonly name: string; readonly visible: number; readonly inFlight: number; readonly deadLettered: number }>;
  /** The priority bands, highest first, with the least priority each takes: how the console groups what waits. */
  readonly bands?: readonly PriorityBand[];
}

/**
 * How much work is queued or in progress, per queue, and what was given up on: each queue's dead-letter
 * queue, or all of a queue of failures. Zero visible and in flight everywhere means the controllers are
 * idle, which is how `outrank apply` knows a step has settled; anything dead-lettered is work that was
 * given up on (`outrank check` reports it).
 */
export async function queueStatus(queues: readonly ObservedQueue[], bands?: readonly PriorityBand[]): Promise<ApiResponse> {
  const items = await Promise.all(queues.map(async (queue) => ({ name: queue.name, ...(await queue.depth()), deadLettered: await queue.deadLettered() })));
  const list: QueueStatusList & { apiVersion: string } = { kind: 'QueueStatusList', apiVersion: 'outrank.io/v1', items, ...(bands ? { bands } : {}) };
  return jsonResponse(200, list);
}
