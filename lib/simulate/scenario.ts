import * as z from 'zod';
import { featureGatesSchema, schedulerNamesSchema } from '../config';

const objectLocator = z.strictObject({
  apiVersion: z.string().min(1).max(253),
  kind: z.string().min(1).max(63),
  namespace: z.string().max(63).optional(),
  name: z.string().min(1).max(253),
});
export type ObjectLocator = z.infer<typeof objectLocator>;

const DURATION = /^(\d+)(ms|s|m|h)$/;

const duration = z
  .string()
  .regex(DURATION, 'must be a duration such as "30s", "5m" or "1h"')
  .transform((text) => {
    const [, amount, unit] = DURATION.exec(text)!;
    const scale = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[unit as 'ms' | 's' | 'm' | 'h'];
    return Number(amount) * scale;
  });

const patchTarget = objectLocator.extend({ patch: z.record(z.string(), z.unknown()) });

export type ScenarioStep =
  | { readonly apply: unknown[] }
  | { readonly delete: ObjectLocator[] }
  | { readonly patch: Array<z.infer<typeof patchTarget>> }
  | { readonly wait: number };

const ACTIONS = ['apply', 'delete', 'patch', 'wait'] as const;

/**
 * One action per step. Written as one object of optional fields rather than a union of four, so that a
 * wrong step is reported at the field that is wrong (`steps[2].apply: Required value`), not as a union
 * none of whose four shapes matched.
 */
const step = z
  .strictObject({
    apply: z.array(z.unknown()).min(1).optional(),
    delete: z.array(objectLocator).min(1).optional(),
    patch: z.array(patchTarget).min(1).optional(),
    wait: duration.optional(),
  })
  .superRefine((fields, context) => {
    const given = ACTIONS.filter((action) => fields[action] !== undefined);
    if (given.length === 1) return;
    context.addIssue({
      code: 'custom',
      message: given.length === 0 ? `must specify one of: ${ACTIONS.join(', ')}` : `may not specify more than one of: ${given.join(', ')}`,
      params: { fieldErrorType: given.length === 0 ? 'Required value' : 'Forbidden' },
    });
  })
  .transform((fields): ScenarioStep => {
    const action = ACTIONS.find((name) => fields[name] !== undefined)!;
    return { [action]: fields[action] } as ScenarioStep;
  });

/**
 * A what-if scenario: steps applied one after another, each followed by running the system until no
 * work is left. `wait` moves the virtual clock on and runs the reconcile (the 5-minute requeue).
 */
export const scenarioSchema = z.strictObject({
  description: z.string().max(4096).optional(),
  config: z
    .strictObject({
      gates: featureGatesSchema.optional(),
      schedulerNames: schedulerNamesSchema.optional(),
      preemptibleBelowPriority: z.number().int().optional(),
    })
    .optional(),
  steps: z.array(step).min(1).max(10_000),
});
export type Scenario = z.infer<typeof scenarioSchema>;
