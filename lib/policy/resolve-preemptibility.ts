import type { Preemptibility } from '../api/propagation-policy';

export const PREEMPTIBILITY_LABEL = 'kai.scheduler/preemptibility';

const VALID: ReadonlySet<string> = new Set<Preemptibility>(['preemptible', 'non-preemptible']);

export interface PreemptibilityInputs {
  readonly policyPreemptibility: Preemptibility | undefined;
  readonly templateLabels: Readonly<Record<string, string>> | undefined;
  readonly podLabels: Readonly<Record<string, string>> | undefined;
  readonly priority: number;
  readonly preemptibleBelowPriority: number;
}

export interface ResolvedPreemptibility {
  readonly preemptibility: Preemptibility;
  readonly source: 'policy' | 'template label' | 'pod template label' | 'priority';
  /** Label values that were not valid and were skipped (each gives a Warning event). */
  readonly invalidLabels: ReadonlyArray<{ readonly where: 'template' | 'pod template'; readonly value: string }>;
}

/**
 * Preemptibility separate from priority (001): the explicit spec field, then the top-level owner's label, then the pod's
 * label, then the legacy rule (priority below the threshold is preemptible). An invalid label value is
 * skipped in favour of the next rule.
 */
export function resolvePreemptibility(inputs: PreemptibilityInputs): ResolvedPreemptibility {
  const invalidLabels: Array<{ where: 'template' | 'pod template'; value: string }> = [];
  if (inputs.policyPreemptibility) {
    return { preemptibility: inputs.policyPreemptibility, source: 'policy', invalidLabels };
  }
  const labelled: Array<['template' | 'pod template', string | undefined]> = [
    ['template', inputs.templateLabels?.[PREEMPTIBILITY_LABEL]],
    ['pod template', inputs.podLabels?.[PREEMPTIBILITY_LABEL]],
  ];
  for (const [where, value] of labelled) {
    if (value === undefined) continue;
    if (VALID.has(value)) {
      return {
        preemptibility: value as Preemptibility,
        source: where === 'template' ? 'template label' : 'pod template label',
        invalidLabels,
      };
    }
    invalidLabels.push({ where, value });
  }
  const preemptibility: Preemptibility = inputs.priority < inputs.preemptibleBelowPriority ? 'preemptible' : 'non-preemptible';
  return { preemptibility, source: 'priority', invalidLabels };
}
