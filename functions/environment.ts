import { z } from 'zod';
import { DEFAULT_BANDS, withConfig, type SchedulerConfig } from '../lib/config';
import type { AwsResources } from './adapters/aws-context';

const settingsSchema = z.strictObject({
  gates: z
    .strictObject({
      PriorityBasedScheduling: z.boolean().optional(),
      PriorityBasedPreemptiveScheduling: z.boolean().optional(),
      PropagationPolicyPreemption: z.boolean().optional(),
    })
    .optional(),
  preemptibleBelowPriority: z.number().int().optional(),
  bands: z
    .array(z.strictObject({ name: z.string().regex(/^[a-z0-9-]{1,40}$/), minPriority: z.number().int() }))
    .min(1)
    .optional(),
});
export type OutrankSettings = z.infer<typeof settingsSchema>;

const environmentSchema = z.object({
  OBJECTS_TABLE: z.string().min(1),
  EVENTS_TABLE: z.string().min(1),
  POLICY_CHANGE_QUEUE_URL: z.string().url(),
  BINDING_ENQUEUE_QUEUE_URL: z.string().url(),
  SCHEDULE_TICK_QUEUE_URL: z.string().url(),
  BAND_QUEUE_URLS: z.string().transform((text, context) => {
    try {
      return z.record(z.string(), z.string().url()).parse(JSON.parse(text));
    } catch {
      context.addIssue({ code: 'custom', message: 'must be a JSON object of band name to queue URL' });
      return z.NEVER;
    }
  }),
  OUTRANK_SETTINGS: z.string().optional(),
});

/** Scheduler settings shared by the stack and the local runtime, as JSON (gates, bands, threshold). */
export function parseSettings(text: string | undefined): SchedulerConfig {
  if (!text) return withConfig();
  const settings = settingsSchema.parse(JSON.parse(text));
  return withConfig({ ...settings, bands: settings.bands ?? DEFAULT_BANDS, gates: settings.gates ?? {} });
}

/** Reads where the resources are and how to schedule from the function's environment; fails loudly when incomplete. */
export function readEnvironment(environment: NodeJS.ProcessEnv = process.env): { resources: AwsResources; config: SchedulerConfig } {
  const parsed = environmentSchema.parse(environment);
  return {
    resources: {
      objectsTable: parsed.OBJECTS_TABLE,
      eventsTable: parsed.EVENTS_TABLE,
      policyChangeQueueUrl: parsed.POLICY_CHANGE_QUEUE_URL,
      bindingEnqueueQueueUrl: parsed.BINDING_ENQUEUE_QUEUE_URL,
      scheduleTickQueueUrl: parsed.SCHEDULE_TICK_QUEUE_URL,
      bandQueueUrls: parsed.BAND_QUEUE_URLS,
    },
    config: parseSettings(parsed.OUTRANK_SETTINGS),
  };
}

/** The environment a function needs for these resources: what the stack and the local runtime set. */
export function environmentFor(resources: AwsResources, settings?: OutrankSettings): Record<string, string> {
  return {
    OBJECTS_TABLE: resources.objectsTable,
    EVENTS_TABLE: resources.eventsTable,
    POLICY_CHANGE_QUEUE_URL: resources.policyChangeQueueUrl,
    BINDING_ENQUEUE_QUEUE_URL: resources.bindingEnqueueQueueUrl,
    SCHEDULE_TICK_QUEUE_URL: resources.scheduleTickQueueUrl,
    BAND_QUEUE_URLS: JSON.stringify(resources.bandQueueUrls),
    ...(settings ? { OUTRANK_SETTINGS: JSON.stringify(settings) } : {}),
  };
}
