import { describe, expect, it } from 'vitest';
import { DEFAULT_SCHEDULER_NAME, isScheduledBy, schedulerNameOf } from '../../../lib/api/scheduler-name';
import { binding } from '../scheduler/support';

describe("which scheduler takes a binding: spec.schedulerName, as Karmada's scheduler filters by it", () => {
  // Karmada: pkg/scheduler/event_handler_test.go, TestSchedulerNameFilter.
  it.each<[string, string, string | undefined, boolean]>([
    ['matching scheduler names', 'test-scheduler', 'test-scheduler', true],
    ['non-matching scheduler names', 'test-scheduler', 'other-scheduler', false],
    ['empty scheduler name defaults to DefaultScheduler', DEFAULT_SCHEDULER_NAME, '', true],
    // outrank's bindings stored before they carried a name are the default scheduler's too.
    ['no scheduler name is the default scheduler', DEFAULT_SCHEDULER_NAME, undefined, true],
  ])('event_handler_test.go, TestSchedulerNameFilter, "%s"', (_, configured, named, taken) => {
    expect(isScheduledBy([configured], binding('b', { schedulerName: named }))).toBe(taken);
  });

  // Karmada: pkg/scheduler/event_handler_test.go, TestResourceBindingEventFilter, the cases about the
  // scheduler name (the policy labels they also vary are Karmada's claim marks; every binding outrank
  // holds is a policy's claim).
  it.each<[string, 'ResourceBinding' | 'ClusterResourceBinding', string, boolean]>([
    ['ResourceBinding: Matching scheduler name, with PropagationPolicyPermanentIDLabel', 'ResourceBinding', 'test-scheduler', true],
    ['ResourceBinding: Non-matching scheduler name', 'ResourceBinding', 'other-scheduler', false],
    ['ClusterResourceBinding: Matching scheduler name, with ClusterPropagationPolicyPermanentIDLabel', 'ClusterResourceBinding', 'test-scheduler', true],
    ['ClusterResourceBinding: Non-matching scheduler name', 'ClusterResourceBinding', 'other-scheduler', false],
  ])('event_handler_test.go, TestResourceBindingEventFilter, "%s"', (_, kind, named, taken) => {
    expect(isScheduledBy(['test-scheduler'], binding('b', { kind, schedulerName: named }))).toBe(taken);
  });

  it('an outrank answering to several names takes the bindings of each', () => {
    const names = ['outrank', 'default-scheduler'];
    expect(isScheduledBy(names, binding('a', { schedulerName: 'outrank' }))).toBe(true);
    expect(isScheduledBy(names, binding('b'))).toBe(true);
    expect(isScheduledBy(names, binding('c', { schedulerName: 'my-custom-scheduler' }))).toBe(false);
  });

  it('names the scheduler of a binding as Karmada does: the default one when empty', () => {
    expect(schedulerNameOf(binding('a', { schedulerName: '' }))).toBe('default-scheduler');
    expect(schedulerNameOf(binding('b', { schedulerName: 'my-custom-scheduler' }))).toBe('my-custom-scheduler');
  });
});
