import * as z from 'zod';
import { int32, objectMeta } from './meta';

export const preemptionPolicy = z.enum(['PreemptLowerPriority', 'Never']);
export type PreemptionPolicy = z.infer<typeof preemptionPolicy>;

/** scheduling.k8s.io/v1 PriorityClass (binding priority and preemption (000), "Priority Classes"). */
export const priorityClassSchema = z.strictObject({
  apiVersion: z.literal('scheduling.k8s.io/v1'),
  kind: z.literal('PriorityClass'),
  metadata: objectMeta,
  value: int32.meta({ description: 'The priority of bindings resolved to this class; higher is more important. Immutable.' }),
  globalDefault: z.boolean().optional(),
  // Defaulted as the Kubernetes API server does: clients read it back set (kubectl describe needs it).
  preemptionPolicy: preemptionPolicy.default('PreemptLowerPriority').meta({
    description: 'PreemptLowerPriority (default) lets bindings of this class preempt lower-priority bindings; Never makes them wait instead.',
  }),
  description: z.string().max(4096).optional(),
}).meta({ description: 'Maps a priority class name to the integer priority of the bindings that use it (binding priority and preemption (000)).' });
export type PriorityClass = z.infer<typeof priorityClassSchema>;

export function effectivePreemptionPolicy(priorityClass: PriorityClass): PreemptionPolicy {
  return priorityClass.preemptionPolicy ?? 'PreemptLowerPriority';
}
