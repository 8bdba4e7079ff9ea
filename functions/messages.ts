import * as z from 'zod';
import type { BindingRequest, ObjectChange, QueuedBinding } from '../lib/controllers/messages';

const objectRef = z.strictObject({
  group: z.string().max(253),
  kind: z.string().min(1).max(63),
  namespace: z.string().max(63),
  name: z.string().min(1).max(253),
});

/** Queue message bodies are checked like any input: a malformed one fails and ends in the dead-letter queue. */
export const objectChangeSchema: z.ZodType<ObjectChange> = z.strictObject({ ref: objectRef });

const bindingRef = z.strictObject({
  kind: z.enum(['ResourceBinding', 'ClusterResourceBinding']),
  namespace: z.string().max(63),
  name: z.string().min(1).max(253),
});

/** The clusters a woken binding was woken for: a placement's worth of cluster names. */
const wokenFor = z.array(z.string().min(1).max(253)).min(1).max(1000);

/**
 * A cause names a change at a version (messages.ts): at its longest a binding's,
 * `ResourceBinding/<namespace, 63>/<name, 253>@<resourceVersion, 64>@unschedulable`, 412 characters.
 */
const MAX_CAUSE_LENGTH = 512;

export const bindingRequestSchema: z.ZodType<BindingRequest> = z.strictObject({
  binding: bindingRef,
  resourceVersion: z.string().max(64),
  cause: z.string().max(MAX_CAUSE_LENGTH).optional(),
  wokenFor: wokenFor.optional(),
});

/** Band queues: schedule-cycle receives them itself, through the adapter, which checks them with this. */
export const queuedBindingSchema: z.ZodType<QueuedBinding> = z.strictObject({
  binding: bindingRef,
  priority: z.number().int(),
  enqueuedAt: z.number(),
  wokenFor: wokenFor.optional(),
});
