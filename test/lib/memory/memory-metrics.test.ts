import { describe, expect, it } from 'vitest';
import { MemoryMetrics } from '../../../lib/memory/memory-metrics';

describe('MemoryMetrics', () => {
  it('keeps a counter per name and dimensions, whatever order the dimensions are given in', () => {
    const metrics = new MemoryMetrics();
    metrics.count('SchedulingAttempts', { result: 'scheduled' });
    metrics.count('SchedulingAttempts', { result: 'scheduled' }, 2);
    metrics.count('SchedulingAttempts', { result: 'unschedulable' });
    metrics.count('SchedulingAttempts');
    metrics.count('SchedulingAttempts', {});
    metrics.count('Needs', { fn: 'schedule-cycle', reason: 'New' });
    metrics.count('Needs', { reason: 'New', fn: 'schedule-cycle' });
    expect(metrics.counter('SchedulingAttempts', { result: 'scheduled' })).toBe(3);
    expect(metrics.counter('SchedulingAttempts', { result: 'unschedulable' })).toBe(1);
    expect(metrics.counter('SchedulingAttempts')).toBe(2);
    expect(metrics.counter('SchedulingAttempts', {})).toBe(2);
    expect(metrics.counter('Needs', { reason: 'New', fn: 'schedule-cycle' })).toBe(2);
    expect(metrics.counter('Needs', { fn: 'schedule-cycle' })).toBe(0);
    metrics.count('Commits', { phase: 'preempt', band: 'high', result: 'conflict' });
    metrics.count('Commits', { band: 'high', phase: 'preempt', result: 'conflict' });
    expect(metrics.counter('Commits', { result: 'conflict', phase: 'preempt', band: 'high' })).toBe(2);
    expect(metrics.counter('Commits', { band: 'high', phase: 'preempt', result: 'ok' })).toBe(0);
  });

  it('keeps observations in the order made, per series', () => {
    const metrics = new MemoryMetrics();
    metrics.observe('EnqueueToScheduledMs', 5);
    metrics.observe('EnqueueToScheduledMs', 3);
    metrics.observe('EnqueueToScheduledMs', 7, { band: 'high' });
    expect(metrics.observed('EnqueueToScheduledMs')).toEqual([5, 3]);
    expect(metrics.observed('EnqueueToScheduledMs', { band: 'high' })).toEqual([7]);
  });
});
