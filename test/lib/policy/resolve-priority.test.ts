import { describe, expect, it } from 'vitest';
import type { PriorityClass } from '../../../lib/api/priority-class';
import type { SchedulePriority } from '../../../lib/api/propagation-policy';
import { globalDefaultClass, resolvePriority, type ResolvedPriority } from '../../../lib/policy/resolve-priority';
import { priorityClass } from './support';

const SPEC = 'binding priority and preemption (000)';

const high = priorityClass('high', 1000);
const never = priorityClass('batch', 500, { preemptionPolicy: 'Never' });
const defaultLow = priorityClass('default-low', 10, { globalDefault: true });
const defaultHigh = priorityClass('default-high', 20, { globalDefault: true, preemptionPolicy: 'Never' });

describe(`resolvePriority (${SPEC}, "SchedulePriority")`, () => {
  it.each<[string, SchedulePriority | undefined, string | undefined, PriorityClass[], ResolvedPriority]>([
    ['KubePriorityClass is the default source', { priorityClassName: 'high' }, undefined, [high], { priority: 1000, preemptionPolicy: 'PreemptLowerPriority' }],
    ['KubePriorityClass named explicitly', { priorityClassSource: 'KubePriorityClass', priorityClassName: 'batch' }, undefined, [high, never], { priority: 500, preemptionPolicy: 'Never' }],
    ['KubePriorityClass ignores the pod template class', { priorityClassName: 'high' }, 'batch', [high, never], { priority: 1000, preemptionPolicy: 'PreemptLowerPriority' }],
    ['PodPriorityClass reads the pod template', { priorityClassSource: 'PodPriorityClass' }, 'batch', [high, never], { priority: 500, preemptionPolicy: 'Never' }],
    ['no schedulePriority, no global default: 0 and Never', undefined, 'high', [high], { priority: 0, preemptionPolicy: 'Never' }],
    ['no class named: the global default', {}, undefined, [high, defaultLow], { priority: 10, preemptionPolicy: 'PreemptLowerPriority' }],
    ['PodPriorityClass without a pod class: the global default', { priorityClassSource: 'PodPriorityClass' }, undefined, [defaultHigh], { priority: 20, preemptionPolicy: 'Never' }],
    [
      'a missing named class: the global default, and the name is reported',
      { priorityClassName: 'gone' },
      undefined,
      [high, defaultLow],
      { priority: 10, preemptionPolicy: 'PreemptLowerPriority', missingClassName: 'gone' },
    ],
    [
      'a missing pod template class without a global default: 0 and Never, reported',
      { priorityClassSource: 'PodPriorityClass' },
      'gone',
      [high],
      { priority: 0, preemptionPolicy: 'Never', missingClassName: 'gone' },
    ],
    ['several global defaults: the smallest value', undefined, undefined, [defaultHigh, high, defaultLow], { priority: 10, preemptionPolicy: 'PreemptLowerPriority' }],
    ['a named class beats the global default', { priorityClassName: 'high' }, undefined, [defaultLow, high], { priority: 1000, preemptionPolicy: 'PreemptLowerPriority' }],
  ])('%s', (_, schedulePriority, podClass, classes, expected) => {
    const podSpec = podClass ? { priorityClassName: podClass } : {};
    expect(resolvePriority(schedulePriority, podSpec, classes)).toEqual(expected);
  });
});

describe(`globalDefaultClass (${SPEC}, "Priority Classes")`, () => {
  it.each<[string, PriorityClass[], string | undefined]>([
    ['none marked', [high, never], undefined],
    ['globalDefault false is not a default', [priorityClass('x', 1, { globalDefault: false })], undefined],
    ['one marked', [high, defaultHigh], 'default-high'],
    ['several marked: the smallest value', [defaultHigh, defaultLow], 'default-low'],
    ['several with equal values: the smaller name', [priorityClass('b', 5, { globalDefault: true }), priorityClass('a', 5, { globalDefault: true })], 'a'],
    ['negative values count as smaller', [defaultLow, priorityClass('neg', -5, { globalDefault: true })], 'neg'],
  ])('%s', (_, classes, expected) => {
    expect(globalDefaultClass(classes)?.metadata.name).toBe(expected);
  });
});
