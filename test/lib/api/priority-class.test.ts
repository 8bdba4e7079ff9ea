import { describe, expect, it } from 'vitest';
import { effectivePreemptionPolicy, priorityClassSchema, type PriorityClass } from '../../../lib/api/priority-class';

function priorityClass(fields: Record<string, unknown>): unknown {
  return { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000, ...fields };
}

describe('PriorityClass schema (binding priority and preemption (000), "Priority Classes")', () => {
  it('accepts the document\'s example class', () => {
    const result = priorityClassSchema.safeParse(
      priorityClass({ metadata: { name: 'foo' }, globalDefault: true, preemptionPolicy: 'PreemptLowerPriority', value: 2_000_000_000 }),
    );
    expect(result.success).toBe(true);
  });

  it.each([
    ['a value that is not an int32', { value: 2 ** 31 }, ['value']],
    ['a fractional value', { value: 1.5 }, ['value']],
    ['a missing value', { value: undefined }, ['value']],
    ['an unknown preemption policy', { preemptionPolicy: 'Always' }, ['preemptionPolicy']],
    ['a non-boolean globalDefault', { globalDefault: 'yes' }, ['globalDefault']],
    ['an unknown field', { priority: 5 }, []],
  ])('rejects %s', (_, fields, path) => {
    const result = priorityClassSchema.safeParse(priorityClass(fields));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(path);
  });
});

describe('effectivePreemptionPolicy (binding priority and preemption (000))', () => {
  it.each([
    [undefined, 'PreemptLowerPriority'],
    ['PreemptLowerPriority', 'PreemptLowerPriority'],
    ['Never', 'Never'],
  ] as const)('preemptionPolicy %s → %s', (preemptionPolicy, expected) => {
    const parsed = priorityClassSchema.parse(priorityClass(preemptionPolicy ? { preemptionPolicy } : {})) as PriorityClass;
    expect(effectivePreemptionPolicy(parsed)).toBe(expected);
  });
});
