import type { Preemptibility } from '../api/propagation-policy';

export const PREEMPTIBILITY_LABEL = 'kai.scheduler/preemptibility';

const VALID: ReadonlySet<string> = new Set<Preemptibility>(['preemptible', 'non-preemptible']);

export interface PreemptibilityInputs {
  readonly policyPreemptibility: Preemptibility | undefined;
  readonly templateLabels: Readonly<Record<string, string>> | undefined;
  readonly podLabels: Readonly<Record<string, string>> | undefined;
  readonly priority: number;
  readonly preemptibleBelowPriority: number;
  /** False where tenancy does not grant the namespace the privilege: a label saying non-preemptible is skipped. */
  readonly labelsMayDeclareNonPreemptible: boolean;
}

export interface ResolvedPreemptibility {
  readonly preemptibility: Preemptibility;
  readonly source: 'policy' | 'template label' | 'pod template label' | 'priority';
  /** Label values that were not valid and were skipped (each gives a Warning event). */
  readonly invalidLabels: ReadonlyArray<{ readonly where: 'template' | 'pod template'; readonly value: string }>;
  /** Labels saying non-preemptible that were skipped because the namespace is not granted it (each gives a Warning event). */
  readonly ungrantedLabels: ReadonlyArray<'template' | 'pod template'>;
}

/**
 * Preemptibility separate from priority (001): the explicit spec field, then the top-level owner's label, then the pod's
 * label, then the legacy rule (priority below the threshold is preemptible). An invalid label value is
 * skipped in favour of the next rule, and so is a label saying non-preemptible in a namespace that
 * tenancy does not grant it (declaring work non-preemptible is a privilege).
 */
export function resolvePreemptibility(inputs: PreemptibilityInputs): ResolvedPreemptibility {
  const invalidLabels: Array<{ where: 'template' | 'pod template'; value: string }> = [];
  const ungrantedLabels: Array<'template' | 'pod template'> = [];
  if (inputs.policyPreemptibility) {
    return { preemptibility: inputs.policyPreemptibility, source: 'policy', invalidLabels, ungrantedLabels };
  }
  const labelled: Array<['template' | 'pod template', string | undefined]> = [
    ['template', inputs.templateLabels?.[PREEMPTIBILITY_LABEL]],
    ['pod template', inputs.podLabels?.[PREEMPTIBILITY_LABEL]],
  ];
  for (const [where, value] of labelled) {
    if (value === undefined) continue;
    if (value === 'non-preemptible' && !inputs.labelsMayDeclareNonPreemptible) {
      ungrantedLabels.push(where);
      continue;
    }
    if (VALID.has(value)) {
      return {
        preemptibility: value as Preemptibility,
        source: where === 'template' ? 'template label' : 'pod template label',
        invalidLabels,
        ungrantedLabels,
      };
    }
    invalidLabels.push({ where, value });
  }
  const preemptibility: Preemptibility = inputs.priority < inputs.preemptibleBelowPriority ? 'preemptible' : 'non-preemptible';
  return { preemptibility, source: 'priority', invalidLabels, ungrantedLabels };
}
