import { PlacementOracle } from './placement-oracle';
import { candidatePlacements } from './preemption-candidates';
import type { Requirement } from './replica-strategy';
import type { BindingState, ClusterState, SchedulingSnapshot } from './snapshot';
import { selectVictims } from './victim-search';

export interface PreemptionPlan {
  readonly victims: readonly BindingState[];
  /** The victim set is proven minimal (false when the search budget ran out first). */
  readonly exact: boolean;
}

/**
 * 000_ced50c21932b3714.txt, "Preemption scenario": victims are ResourceBindings of strictly lower
 * priority that are preemptible and request resources; ClusterResourceBindings are left alone.
 * The rule as written: candidatePlacements applies it from the snapshot's per-rank arrays, and the
 * tests hold the two to each other.
 */
export function isVictimCandidate(candidate: BindingState, preemptor: BindingState): boolean {
  return candidate.priority < preemptor.priority && candidate.mayBeVictim && candidate.key !== preemptor.key;
}

/**
 * Finds the fewest victims on the given clusters whose eviction lets the preemptor meet its
 * requirement (ties: lower highest priority, then lower priority sum), or null when even evicting
 * every candidate would not be enough, in which case nobody is preempted.
 */
export function planPreemption(
  preemptor: BindingState,
  clusters: readonly ClusterState[],
  requirement: Requirement,
  snapshot: SchedulingSnapshot,
  searchBudget: number,
): PreemptionPlan | null {
  const relevant = [
    ...new Map(clusters.filter((c) => requirement.type === 'pooled' || requirement.need.has(c.name)).map((c) => [c.name, c])).values(),
  ];
  const placements = candidatePlacements(relevant, snapshot, preemptor);
  const { candidates } = placements;
  const oracle = new PlacementOracle(preemptor, relevant, placements, snapshot, requirement);
  const selection = selectVictims(
    candidates,
    oracle,
    // candidatePlacements lists them by priority, then key.
    { searchBudget, inSearchOrder: true },
  );
  if (!selection || selection.victims.length === 0) return null;
  return { victims: selection.victims.map((index) => candidates[index]!), exact: selection.exact };
}
