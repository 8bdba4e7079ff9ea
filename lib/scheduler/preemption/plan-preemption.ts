/**
 * Preemption (binding priority and preemption (000), "Preemption scenario" and "Preemption order";
 * Preemptibility separate from priority (001)). The entry point is planPreemption; its steps, in the
 * order the Kubernetes preemption evaluator would name them:
 *
 * 1. Relevant clusters: the feasible clusters of the affinity term being tried that the requirement
 *    can use (every one for a pooled or spread requirement; the clusters that must each hold replicas
 *    otherwise).
 * 2. A single victim (single-victim-walk.ts): the clusters' residents are read from the lowest rank
 *    up, and the first candidate that is enough alone is the answer, proven best, before anything is
 *    laid out; when none is among the first ranks read, the steps below decide.
 * 3. A requirement met on one cluster (one replica more, anywhere; or a per-cluster requirement with one
 *    cluster short of its share: one-cluster-search.ts): the best set lies within one cluster, so each
 *    cluster's residents are searched alone (steps 4 and 5 on them), clusters whose lower bound cannot
 *    beat the best set found left out; what follows is for the others.
 * 4. Candidates (preemption-candidates.ts): the residents of those clusters that may be victims —
 *    ResourceBindings of strictly lower priority, preemptible, requesting resources — read from the
 *    snapshot's per-rank arrays in the victim search's order (lowest priority first, then the preemptor's own
 *    order among equals, victim-tie-order.ts). For a per-cluster requirement, of its short clusters alone.
 * 5. Oracle (placement-oracle.ts): given a set of candidates evicted, can the preemptor's requirement
 *    be met? It also bounds how many more victims a partial set needs (victim-count-bound.ts) and which
 *    single candidates could complete it.
 * 6. Two victims (victim-pair-search.ts): a per-cluster requirement short on several clusters, where no
 *    single victim is enough, most often needs two; the best pair is found by reading, for each
 *    candidate in order, only the candidates that could partner it, and proven the best of all sets,
 *    first among the candidates up to the lowest priority at which two might close every gap. When no
 *    pair is enough, the search below starts from three. For such a requirement the search reads only
 *    the candidates some best set may hold: one freeing no more of each lacking resource than as many
 *    earlier candidates as a set found enough has victims is in none (dominated-candidates.ts).
 * 7. Search (victim-search.ts): a single victim if one is enough; else the greedy reprieve for an upper
 *    bound, an exchange step, and an exact branch-and-bound search for the fewest victims (ties: the
 *    lower highest priority, then the lower sum, then the less important most important victim), all
 *    within `searchBudget` oracle calls; when the budget runs out the best set found so far is used,
 *    never worse than the greedy, and the plan says it is not exact (metric VictimSearches{result}).
 *    The search runs first on the first candidates of its order and from a lower bound on the count
 *    (staged-victim-search.ts, fewest-victims.ts), and over every candidate as above only when those
 *    do not prove their answer.
 * 8. Nothing to gain: when evicting every candidate would not be enough, nobody is preempted.
 *
 * Worked example (the capacity-10 example of 000): member1 has 10 cpu, filled by bindings of priority
 * 0, 1, 2 and 3 requesting 1, 2, 5 and 2 cpu; a priority-10 binding needs 5 cpu. Step 2 reads them
 * from the lowest priority up: the priority-0 and priority-1 bindings free too little alone, the
 * priority-2 binding frees 5 cpu, which is enough. One victim beats any set of two or more, and among
 * single victims the first enough in that order is the best (the lower priority), so the plan is
 * {priority 2}, exact, and the priority-3 binding is never read.
 */
import { PlacementOracle } from './placement-oracle';
import { candidatePlacements, type CandidatePlacements } from './preemption-candidates';
import type { ResourceList } from '../../resources';
import type { Requirement } from '../replica-strategy';
import type { BindingState, ClusterState, SchedulingSnapshot } from '../snapshot';
import { selectVictimsInStages } from './staged-victim-search';
import { walkToSingleVictim } from './single-victim-walk';
import { planOnOneCluster } from './one-cluster-search';

/**
 * Residents the walk for a single victim reads before it leaves the decision to the search, at the least
 * (SINGLE_VICTIM_SHARE): most single victims are among the lowest ranks of the clusters, and reading a
 * resident costs a fraction of what laying it out for the search does. A per-cluster requirement short
 * on several clusters reads only the bindings on all of them, whatever their number (single-victim-walk.ts).
 */
const SINGLE_VICTIM_WALK = 1024;
/**
 * The same for one replica more, anywhere, whose own scan for a single victim (one-cluster-search.ts)
 * reads each cluster's residents only up to the best priority found: the walk is a first look, for a
 * victim among the first ranks.
 */
const ONE_CLUSTER_WALK = 32;
/**
 * Past SINGLE_VICTIM_WALK, the share of the clusters' residents below the preemptor's priority the walk
 * reads before the search decides, where that is more: the search lays out each of them and bounds over
 * them all, about ten times what a read costs (a region of 30 clusters holding 300 bindings each: about
 * 8,000 candidates, 6–8 ms), so a walk that reads half of them and gives up adds a fraction of the
 * search's cost, and one that finds the victim spares it whole. Not for one replica more, anywhere, whose
 * own scan costs less than that search: read first, half the residents cost more than the scan saves
 * (counted per one-replica decision: a third more at 30 bindings per cluster, 2.6 times as much at 300).
 * A per-cluster requirement with one short cluster reads that cluster alone, so the share passes
 * SINGLE_VICTIM_WALK only where it holds more than twice as many residents below the preemptor.
 */
const SINGLE_VICTIM_SHARE = 1 / 2;

export interface PreemptionPlan {
  readonly victims: readonly BindingState[];
  /** The victim set is proven minimal (false when the search budget ran out first). */
  readonly exact: boolean;
}

/**
 * Binding priority and preemption (000), "Preemption scenario": victims are ResourceBindings of strictly lower
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
 * every candidate would not be enough, in which case nobody is preempted. `room` is the room the
 * requirement has on a cluster before any eviction: by default the free room with the preemptor's own
 * placement counted as free; less when replicas it keeps stay where they are (assignment-basis.ts).
 */
export function planPreemption(
  preemptor: BindingState,
  clusters: readonly ClusterState[],
  requirement: Requirement,
  snapshot: SchedulingSnapshot,
  searchBudget: number,
  room: (cluster: ClusterState) => ResourceList = (cluster) => snapshot.free(cluster, preemptor),
): PreemptionPlan | null {
  const relevant = [
    ...new Map(clusters.filter((c) => requirement.type !== 'per-cluster' || requirement.need.has(c.name)).map((c) => [c.name, c])).values(),
  ];
  const oneCluster = requirement.type === 'pooled' && requirement.replicas === 1;
  const walk = oneCluster
    ? walkToSingleVictim(preemptor, relevant, requirement, snapshot, room, ONE_CLUSTER_WALK)
    : walkToSingleVictim(preemptor, relevant, requirement, snapshot, room, SINGLE_VICTIM_WALK, SINGLE_VICTIM_SHARE);
  if (walk.found === 'nothing-needed') return null;
  if (walk.found === 'victim') return { victims: [walk.victim], exact: true };
  if (oneCluster) return planOnOneCluster(preemptor, relevant, snapshot, searchBudget, room);
  // Per-cluster, with one cluster short of its share: victims elsewhere add nothing there.
  const [onlyShort, ...otherShort] = walk.short;
  if (requirement.type === 'per-cluster' && onlyShort && otherShort.length === 0) {
    return planOnOneCluster(preemptor, [onlyShort], snapshot, searchBudget, room, requirement.need.get(onlyShort.name)!);
  }
  // A per-cluster requirement here has several short clusters, and no single victim (the walk read
  // every candidate on them all). Two victims are the commonest answer; none when some short cluster
  // needs three below the preemptor's priority.
  const severalShort = requirement.type === 'per-cluster';
  const noPair = severalShort && walk.pairsFrom >= preemptor.priority;
  // Per-cluster: the other clusters hold their shares already and evictions only add room, so the
  // requirement is met when the short ones hold theirs, and a victim on none of them is in no best set
  // (the set without it is enough, with fewer victims). Only their residents are candidates.
  const searched = severalShort ? walk.short : relevant;
  const oracleOf = (placements: CandidatePlacements) => new PlacementOracle(preemptor, searched, placements, snapshot, requirement, room);
  const asPlan = (placements: CandidatePlacements, victims: readonly number[], exact: boolean): PreemptionPlan => ({
    victims: victims.map((index) => placements.candidates[index]!),
    exact,
  });
  if (severalShort && !noPair && Number.isFinite(walk.pairsFrom)) {
    // The best pair has no victim above the priority from which two might close every gap: only the
    // candidates up to it are laid out first.
    const upToPair = candidatePlacements(searched, snapshot, preemptor, walk.pairsFrom);
    const pair = oracleOf(upToPair).bestPair();
    if (pair.found === 'pair') return asPlan(upToPair, pair.victims, true);
  }
  const placements = candidatePlacements(searched, snapshot, preemptor);
  const oracle = oracleOf(placements);
  const pair = severalShort && !noPair ? oracle.bestPair() : undefined;
  if (pair?.found === 'pair') return asPlan(placements, pair.victims, true);
  // The search proves its answer among the candidates some best set may hold (dominated-candidates.ts).
  const undominated = severalShort ? oracle.undominated() : placements;
  const searchedOracle = undominated === placements ? oracle : oracleOf(undominated);
  // candidatePlacements lists them in search order: by priority, then the preemptor's order among equals.
  // No single victim here (the walk), so two at least; three when no pair is enough.
  const fewest = !severalShort ? 0 : noPair || pair?.fewest === 3 ? 3 : 2;
  const selection = selectVictimsInStages(undominated.candidates, searchedOracle, { searchBudget, fewest });
  if (!selection || selection.victims.length === 0) return null;
  return asPlan(undominated, selection.victims, selection.exact);
}
