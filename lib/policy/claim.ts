import type { AnyPropagationPolicy } from '../api/propagation-policy';
import type { ResourceTemplate } from '../api/resource-template';
import { explicitPriority, isClusterPolicy, policyRef, policySpecificity, samePolicy, Specificity, type PolicyRef } from './policy-match';

interface Candidate {
  readonly policy: AnyPropagationPolicy;
  readonly specificity: Specificity;
}

export type ClaimDecision =
  | { readonly kind: 'unclaimed' }
  | { readonly kind: 'keep'; readonly policy: AnyPropagationPolicy }
  | { readonly kind: 'claim'; readonly policy: AnyPropagationPolicy }
  | { readonly kind: 'preempt'; readonly policy: AnyPropagationPolicy; readonly from: AnyPropagationPolicy };

/**
 * Claim order: PropagationPolicies before ClusterPropagationPolicies (Karmada looks for a namespaced
 * policy first), then the higher explicit priority, the more specific selector, the smaller name.
 */
function compareCandidates(a: Candidate, b: Candidate): number {
  return (
    Number(isClusterPolicy(a.policy)) - Number(isClusterPolicy(b.policy)) ||
    explicitPriority(b.policy) - explicitPriority(a.policy) ||
    b.specificity - a.specificity ||
    (a.policy.metadata.namespace ?? '').localeCompare(b.policy.metadata.namespace ?? '') ||
    a.policy.metadata.name.localeCompare(b.policy.metadata.name)
  );
}

/**
 * Policy priority and preemption (002): a PropagationPolicy takes from a ClusterPropagationPolicy whatever the
 * priorities, a ClusterPropagationPolicy never takes from a PropagationPolicy, otherwise only a strictly
 * higher explicit priority preempts (equal priority never does, whatever the selectors' specificity).
 */
export function canPreempt(preemptor: AnyPropagationPolicy, claimant: AnyPropagationPolicy): boolean {
  if (preemptor.spec.preemption !== 'Always') return false;
  if (!isClusterPolicy(preemptor) && isClusterPolicy(claimant)) return true;
  if (isClusterPolicy(preemptor) !== isClusterPolicy(claimant)) return false;
  return explicitPriority(preemptor) > explicitPriority(claimant);
}

/**
 * Decides which policy claims a template. Claims are sticky: the current claimant keeps the template
 * while it still selects it, unless a policy with `preemption: Always` may take it over.
 */
export function decideClaim(
  template: ResourceTemplate,
  policies: readonly AnyPropagationPolicy[],
  current: PolicyRef | undefined,
  policyPreemptionEnabled: boolean,
): ClaimDecision {
  const candidates = policies
    .map((policy) => ({ policy, specificity: policySpecificity(policy, template) }))
    .filter((candidate) => candidate.specificity !== Specificity.None)
    .sort(compareCandidates);

  const claimant = current && candidates.find((c) => samePolicy(policyRef(c.policy), current));
  if (!claimant) {
    const best = candidates[0];
    return best ? { kind: 'claim', policy: best.policy } : { kind: 'unclaimed' };
  }
  if (policyPreemptionEnabled) {
    const preemptor = candidates.find((c) => c.policy !== claimant.policy && canPreempt(c.policy, claimant.policy));
    if (preemptor) return { kind: 'preempt', policy: preemptor.policy, from: claimant.policy };
  }
  return { kind: 'keep', policy: claimant.policy };
}
