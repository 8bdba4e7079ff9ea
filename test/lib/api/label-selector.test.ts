import { describe, expect, it } from 'vitest';
import { matchesLabelSelector } from '../../../lib/api/label-selector';
import type { LabelSelector } from '../../../lib/api/meta';

const labels = { app: 'web', tier: 'front', empty: '' };

describe('matchesLabelSelector (Kubernetes label selector semantics)', () => {
  it.each<[string, LabelSelector | undefined, Record<string, string> | undefined, boolean]>([
    ['no selector', undefined, labels, true],
    ['empty selector', {}, labels, true],
    ['empty selector, no labels', {}, undefined, true],
    ['matchLabels hit', { matchLabels: { app: 'web' } }, labels, true],
    ['matchLabels all must hold', { matchLabels: { app: 'web', tier: 'back' } }, labels, false],
    ['matchLabels on an empty value', { matchLabels: { empty: '' } }, labels, true],
    ['matchLabels missing key', { matchLabels: { zone: 'a' } }, labels, false],
    ['matchLabels, no labels at all', { matchLabels: { app: 'web' } }, undefined, false],
    ['In hit', { matchExpressions: [{ key: 'tier', operator: 'In', values: ['front', 'back'] }] }, labels, true],
    ['In miss', { matchExpressions: [{ key: 'tier', operator: 'In', values: ['back'] }] }, labels, false],
    ['In on a missing key', { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }, labels, false],
    ['NotIn hit', { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['front'] }] }, labels, false],
    ['NotIn miss', { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['back'] }] }, labels, true],
    ['NotIn on a missing key matches', { matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] }, labels, true],
    ['Exists', { matchExpressions: [{ key: 'app', operator: 'Exists' }] }, labels, true],
    ['Exists on an empty value', { matchExpressions: [{ key: 'empty', operator: 'Exists' }] }, labels, true],
    ['Exists missing', { matchExpressions: [{ key: 'zone', operator: 'Exists' }] }, labels, false],
    ['DoesNotExist missing', { matchExpressions: [{ key: 'zone', operator: 'DoesNotExist' }] }, labels, true],
    ['DoesNotExist present', { matchExpressions: [{ key: 'app', operator: 'DoesNotExist' }] }, labels, false],
    [
      'matchLabels and matchExpressions together',
      { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['back'] }] },
      labels,
      false,
    ],
    [
      'several expressions all holding',
      {
        matchExpressions: [
          { key: 'app', operator: 'Exists' },
          { key: 'zone', operator: 'DoesNotExist' },
        ],
      },
      labels,
      true,
    ],
  ])('%s', (_, selector, present, expected) => {
    expect(matchesLabelSelector(selector, present)).toBe(expected);
  });

  // Keys such as "constructor" are valid label keys; inherited object members are not labels.
  it.each<[string, LabelSelector, boolean]>([
    ['Exists on "constructor"', { matchExpressions: [{ key: 'constructor', operator: 'Exists' }] }, false],
    ['DoesNotExist on "toString"', { matchExpressions: [{ key: 'toString', operator: 'DoesNotExist' }] }, true],
    ['NotIn on "hasOwnProperty"', { matchExpressions: [{ key: 'hasOwnProperty', operator: 'NotIn', values: ['x'] }] }, true],
  ])('only own labels count: %s', (_, selector, expected) => {
    expect(matchesLabelSelector(selector, { app: 'web' })).toBe(expected);
  });
});
