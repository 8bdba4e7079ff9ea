import * as z from 'zod';
import { tenancySettingsSchema, type TenancySettings } from '../lib/auth/tenancy-settings';
import { DEFAULT_BANDS, featureGatesSchema, schedulerNamesSchema, withConfig, type SchedulerConfig } from '../lib/config';
import { DEFAULT_WHAT_IF_CONCURRENCY } from '../lib/http/what-if-slots';
import type { AwsResources } from './adapters/aws-context';
import { DEFAULT_SCHEDULE_CYCLES } from './adapters/schedule-ticking-queue';

const schedulerSettingsSchema = z.strictObject({
  gates: featureGatesSchema.optional(),
  /** The bindings outrank schedules: those whose spec.schedulerName is one of these (SchedulerConfig.schedulerNames). */
  schedulerNames: schedulerNamesSchema.optional(),
  preemptibleBelowPriority: z.number().int().optional(),
  /** Binding priority and preemption (000), queue: how long an unschedulable binding waits for the flush (unschedulable-flush.ts). */
  unschedulableFlushSeconds: z.number().int().min(1).max(86_400).optional(),
  bands: z
    .array(z.strictObject({ name: z.string().regex(/^[a-z0-9-]{1,40}$/), minPriority: z.number().int() }))
    .min(1)
    .optional(),
});
/**
 * The scheduler settings. The stack spells out every one of them with its default
 * (`Required<OutrankSettings>`), which is why tenancy, which has none, is typed apart.
 */
export type OutrankSettings = z.infer<typeof schedulerSettingsSchema>;

/** OUTRANK_SETTINGS: the scheduler settings and the tenancy model (absent: every caller is an admin). */
const settingsSchema = schedulerSettingsSchema.extend({ tenancy: tenancySettingsSchema.optional() });
export type OutrankSettingsWithTenancy = z.infer<typeof settingsSchema>;

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
  OBJECT_STREAM_FAILURES_QUEUE_URL: z.string().url(),
  OUTRANK_SETTINGS: z.string().optional(),
  /** How many schedule cycles may run at once (the stack's reserved concurrency): the tick groups. */
  SCHEDULE_CYCLES: z.coerce.number().int().min(1).default(DEFAULT_SCHEDULE_CYCLES),
  /** How many what-ifs a process serving the API runs at once (what-if-slots.ts); on Lambda a process serves one request at a time. */
  WHAT_IF_CONCURRENCY: z.coerce.number().int().min(1).default(DEFAULT_WHAT_IF_CONCURRENCY),
});

/** Settings shared by the stack and the local runtime, as JSON (gates, bands, threshold, flush, tenancy). */
export function parseSettings(text: string | undefined): { config: SchedulerConfig; tenancy: TenancySettings | undefined } {
  if (!text) return { config: withConfig(), tenancy: undefined };
  const { tenancy, unschedulableFlushSeconds, ...settings } = settingsSchema.parse(JSON.parse(text));
  const nonPreemptible = tenancy ? { nonPreemptibleNamespaces: tenancy.nonPreemptibleNamespaces ?? [] } : {};
  const flush = unschedulableFlushSeconds === undefined ? {} : { unschedulableRequeueMs: unschedulableFlushSeconds * 1_000 };
  return { config: withConfig({ ...settings, ...flush, bands: settings.bands ?? DEFAULT_BANDS, gates: settings.gates ?? {}, ...nonPreemptible }), tenancy };
}

export interface FunctionEnvironment {
  readonly resources: AwsResources;
  readonly config: SchedulerConfig;
  /** Undefined when no tenancy is configured: every caller is an admin. */
  readonly tenancy: TenancySettings | undefined;
  /** How many schedule cycles may run at once. */
  readonly scheduleCycles: number;
  /** How many what-ifs this process runs at once. */
  readonly whatIfConcurrency: number;
}

/** Reads where the resources are, how to schedule and who may write from the function's environment; fails loudly when incomplete. */
export function readEnvironment(environment: NodeJS.ProcessEnv = process.env): FunctionEnvironment {
  const parsed = environmentSchema.parse(environment);
  return {
    resources: {
      objectsTable: parsed.OBJECTS_TABLE,
      eventsTable: parsed.EVENTS_TABLE,
      policyChangeQueueUrl: parsed.POLICY_CHANGE_QUEUE_URL,
      bindingEnqueueQueueUrl: parsed.BINDING_ENQUEUE_QUEUE_URL,
      scheduleTickQueueUrl: parsed.SCHEDULE_TICK_QUEUE_URL,
      bandQueueUrls: parsed.BAND_QUEUE_URLS,
      objectStreamFailuresQueueUrl: parsed.OBJECT_STREAM_FAILURES_QUEUE_URL,
    },
    ...parseSettings(parsed.OUTRANK_SETTINGS),
    scheduleCycles: parsed.SCHEDULE_CYCLES,
    whatIfConcurrency: parsed.WHAT_IF_CONCURRENCY,
  };
}

/** The environment a function needs for these resources: what the stack and the local runtime set. */
export function environmentFor(resources: AwsResources, settings?: OutrankSettingsWithTenancy, scheduleCycles = DEFAULT_SCHEDULE_CYCLES): Record<string, string> {
  return {
    OBJECTS_TABLE: resources.objectsTable,
    EVENTS_TABLE: resources.eventsTable,
    POLICY_CHANGE_QUEUE_URL: resources.policyChangeQueueUrl,
    BINDING_ENQUEUE_QUEUE_URL: resources.bindingEnqueueQueueUrl,
    SCHEDULE_TICK_QUEUE_URL: resources.scheduleTickQueueUrl,
    BAND_QUEUE_URLS: JSON.stringify(resources.bandQueueUrls),
    OBJECT_STREAM_FAILURES_QUEUE_URL: resources.objectStreamFailuresQueueUrl,
    ...(settings ? { OUTRANK_SETTINGS: JSON.stringify(settings) } : {}),
    SCHEDULE_CYCLES: String(scheduleCycles),
  };
}
