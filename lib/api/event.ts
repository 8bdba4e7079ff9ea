import * as z from 'zod';
import { objectMeta } from './meta';

export const involvedObjectSchema = z.strictObject({
  apiVersion: z.string().max(253).optional(),
  kind: z.string().max(63),
  namespace: z.string().max(63).optional(),
  name: z.string().max(253),
  /** Which object of that name: a binding deleted and made again under the same name has another uid. */
  uid: z.string().max(128).optional(),
});
export type InvolvedObject = z.infer<typeof involvedObjectSchema>;

/** core/v1 Event, as kubectl describe shows them. */
export const eventSchema = z.strictObject({
  apiVersion: z.literal('v1'),
  kind: z.literal('Event'),
  metadata: objectMeta,
  involvedObject: involvedObjectSchema,
  related: involvedObjectSchema.optional(),
  type: z.enum(['Normal', 'Warning']),
  reason: z.string().max(128),
  message: z.string().max(32_768),
  count: z.number().int().positive().optional(),
  firstTimestamp: z.string().max(64).optional(),
  lastTimestamp: z.string().max(64).optional(),
  source: z.strictObject({ component: z.string().max(253) }).optional(),
});
export type KubeEvent = z.infer<typeof eventSchema>;

/** How an event names the object it is about. */
export function involvedObjectOf(object: { apiVersion: string; kind: string; metadata: { namespace?: string; name: string; uid?: string } }): InvolvedObject {
  return {
    apiVersion: object.apiVersion,
    kind: object.kind,
    ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}),
    name: object.metadata.name,
    ...(object.metadata.uid ? { uid: object.metadata.uid } : {}),
  };
}

/** Annotations the scheduler puts on each Preempted event, so the decision can be audited later. */
export const PREEMPTOR_PRIORITY_ANNOTATION = 'outrank.io/preemptor-priority';
export const VICTIM_PRIORITY_ANNOTATION = 'outrank.io/victim-priority';
export const VICTIM_PREEMPTIBILITY_ANNOTATION = 'outrank.io/victim-preemptibility';
