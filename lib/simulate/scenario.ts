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

const step = z.union([
  z.strictObject({ apply: z.array(z.unknown()).min(1) }),
  z.strictObject({ delete: z.array(objectLocator).min(1) }),
  z.strictObject({ patch: z.array(objectLocator.extend({ patch: z.record(z.string(), z.unknown()) })).min(1) }),
  z.strictObject({ wait: duration }),
]);
export type ScenarioStep = z.infer<typeof step>;

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
