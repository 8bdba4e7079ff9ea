import { describe, expect, it } from 'vitest';
import { PREEMPTIBILITY_LABEL, resolvePreemptibility, type PreemptibilityInputs, type ResolvedPreemptibility } from '../../../lib/policy/resolve-preemptibility';

const SPEC = 'preemptibility separate from priority (001)';

function inputs(overrides: Partial<PreemptibilityInputs>): PreemptibilityInputs {
  return { policyPreemptibility: undefined, templateLabels: undefined, podLabels: undefined, priority: 0, preemptibleBelowPriority: 100, labelsMayDeclareNonPreemptible: true, ...overrides };
}
const label = (value: string) => ({ [PREEMPTIBILITY_LABEL]: value });

describe(`resolvePreemptibility (${SPEC}, "可抢占性判定": spec field, owner label, pod label, priority)`, () => {
  it.each<[string, Partial<PreemptibilityInputs>, ResolvedPreemptibility]>([
    [
      'the policy field wins over both labels',
      { policyPreemptibility: 'non-preemptible', templateLabels: label('preemptible'), podLabels: label('preemptible'), priority: 0 },
      { preemptibility: 'non-preemptible', source: 'policy', invalidLabels: [], ungrantedLabels: [] },
    ],
    [
      'a high-priority preemptible workload (example 1)',
      { policyPreemptibility: 'preemptible', priority: 125 },
      { preemptibility: 'preemptible', source: 'policy', invalidLabels: [], ungrantedLabels: [] },
    ],
    [
      'the template label wins over the pod label',
      { templateLabels: label('non-preemptible'), podLabels: label('preemptible') },
      { preemptibility: 'non-preemptible', source: 'template label', invalidLabels: [], ungrantedLabels: [] },
    ],
    [
      'the pod label (example 3)',
      { templateLabels: { app: 'x' }, podLabels: label('non-preemptible'), priority: 50 },
      { preemptibility: 'non-preemptible', source: 'pod template label', invalidLabels: [], ungrantedLabels: [] },
    ],
    [
      'an invalid template label falls to the pod label',
      { templateLabels: label('maybe'), podLabels: label('preemptible'), priority: 500 },
      { preemptibility: 'preemptible', source: 'pod template label', invalidLabels: [{ where: 'template', value: 'maybe' }], ungrantedLabels: [] },
    ],
    [
      'invalid labels on both fall to the priority rule',
      { templateLabels: label('Preemptible'), podLabels: label('semi-preemptible'), priority: 5 },
      { preemptibility: 'preemptible', source: 'priority', invalidLabels: [{ where: 'template', value: 'Preemptible' }, { where: 'pod template', value: 'semi-preemptible' }], ungrantedLabels: [] },
    ],
    [
      'an empty label value is invalid',
      { podLabels: label(''), priority: 100 },
      { preemptibility: 'non-preemptible', source: 'priority', invalidLabels: [{ where: 'pod template', value: '' }], ungrantedLabels: [] },
    ],
    [
      'a valid label after the policy field is not even read',
      { policyPreemptibility: 'preemptible', templateLabels: label('bogus') },
      { preemptibility: 'preemptible', source: 'policy', invalidLabels: [], ungrantedLabels: [] },
    ],
    [
      'a non-preemptible label in a namespace not granted it is skipped, down to the priority rule (tenancy)',
      { templateLabels: label('non-preemptible'), podLabels: label('non-preemptible'), priority: 1, labelsMayDeclareNonPreemptible: false },
      { preemptibility: 'preemptible', source: 'priority', invalidLabels: [], ungrantedLabels: ['template', 'pod template'] },
    ],
    [
      'a preemptible label needs no grant (tenancy)',
      { templateLabels: label('non-preemptible'), podLabels: label('preemptible'), priority: 500, labelsMayDeclareNonPreemptible: false },
      { preemptibility: 'preemptible', source: 'pod template label', invalidLabels: [], ungrantedLabels: ['template'] },
    ],
    [
      'the policy field is judged when the policy is written, not here (tenancy)',
      { policyPreemptibility: 'non-preemptible', templateLabels: label('non-preemptible'), labelsMayDeclareNonPreemptible: false },
      { preemptibility: 'non-preemptible', source: 'policy', invalidLabels: [], ungrantedLabels: [] },
    ],
  ])('%s', (_, overrides, expected) => {
    expect(resolvePreemptibility(inputs(overrides))).toEqual(expected);
  });

  it.each([
    [-5, 100, 'preemptible'],
    [0, 100, 'preemptible'],
    [99, 100, 'preemptible'],
    [100, 100, 'non-preemptible'],
    [125, 100, 'non-preemptible'],
    [50, 50, 'non-preemptible'],
    [49, 50, 'preemptible'],
    [1_000_000, 2_000_000, 'preemptible'],
  ])(`legacy rule (${SPEC}, "向后兼容性"): priority %i with threshold %i → %s`, (priority, preemptibleBelowPriority, expected) => {
    const resolved = resolvePreemptibility(inputs({ priority, preemptibleBelowPriority }));
    expect(resolved.preemptibility).toBe(expected);
    expect(resolved.source).toBe('priority');
  });
});
