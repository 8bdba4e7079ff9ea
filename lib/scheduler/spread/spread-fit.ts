/**
 * Whether some selection meeting a spread rule can hold a binding, given how many of its replicas each
 * feasible cluster can take: preemption's test of a victim set (with them gone, can the binding be placed
 * under its spread constraints?), and the scheduler's fallback when Karmada's own choice does not fit.
 *
 * The selections are the ones Karmada's selection makes (select-clusters.ts), of any clusters:
 * - by cluster: min(n, maxGroups) of the n feasible clusters, n being at least minGroups;
 * - by region: minGroups to maxGroups regions (R) whose clusters number at least the cluster minGroups,
 *   and max(|R|, min(their clusters, cluster maxGroups)) of their clusters, one at least in each.
 * A selection holds a Duplicated binding when each of its clusters holds every replica, a Divided one
 * (by available replicas, or Aggregated) when they hold the replicas together. Both tests grow with the
 * room only (more room never makes a selection fail), as the victim search requires.
 */
import type { Cluster } from '../../api/cluster';
import type { SpreadDemand } from './select-clusters';
import type { GroupBounds, SpreadRule } from './spread-rule';

export interface SpreadFit {
  /** Whether a selection holds the binding with `available[i]` replicas fitting on cluster i. */
  holds(available: ArrayLike<number>): boolean;
  /**
   * A selection that holds it, as cluster indexes, or undefined when none does. Among clusters that serve
   * as well, the earlier in `preference` (every index, most preferred first) are taken; by cluster they are
   * listed roomiest first, by region in the order of `preference`.
   */
  witness(available: ArrayLike<number>, preference: readonly number[]): number[] | undefined;
}

/** The test for the clusters given (the feasible ones, in the order `available` follows); undefined when the rule selects nothing. */
export function spreadFit(rule: SpreadRule, clusters: readonly Cluster[], demand: SpreadDemand): SpreadFit | undefined {
  switch (rule.by) {
    case 'cluster':
      return new ClusterCountFit(rule.clusters, clusters.length, demand);
    case 'region':
      return new RegionFit(rule.regions, rule.clusters, clusters, demand);
    case 'unsupported':
      return undefined;
  }
}

/** By cluster: k = min(n, maxGroups) clusters each holding every replica, or the k roomiest holding them together. */
class ClusterCountFit implements SpreadFit {
  private readonly count: number;
  /** The room of each cluster, rewritten by each pooled question. */
  private readonly capped: Float64Array;

  constructor(
    bounds: GroupBounds,
    clusters: number,
    private readonly demand: SpreadDemand,
  ) {
    this.count = clusters < bounds.minGroups ? 0 : Math.min(clusters, bounds.maxGroups);
    this.capped = new Float64Array(clusters);
  }

  holds(available: ArrayLike<number>): boolean {
    if (this.count === 0) return false;
    const { replicas } = this.demand;
    if (this.demand.duplicated) {
      let holding = 0;
      for (let i = 0; i < available.length; i++) if (available[i]! >= replicas) holding++;
      return holding >= this.count;
    }
    const capped = this.capped;
    let total = 0;
    for (let i = 0; i < capped.length; i++) total += capped[i] = Math.min(available[i]!, replicas);
    if (total < replicas || this.count === capped.length) return total >= replicas;
    capped.sort();
    let sum = 0;
    for (let i = capped.length - 1; i >= capped.length - this.count; i--) sum += capped[i]!;
    return sum >= replicas;
  }

  witness(available: ArrayLike<number>, preference: readonly number[]): number[] | undefined {
    if (!this.holds(available)) return undefined;
    const { replicas } = this.demand;
    const chosen = this.demand.duplicated
      ? preference.filter((index) => available[index]! >= replicas)
      : byRoom(preference, available, replicas);
    return chosen.slice(0, this.count);
  }
}

/** The indexes by capped room, most first, in `preference` order among equals. */
function byRoom(indexes: readonly number[], available: ArrayLike<number>, cap: number): number[] {
  return [...indexes].sort((a, b) => Math.min(available[b]!, cap) - Math.min(available[a]!, cap));
}

/** Regions chosen and how many of each region's clusters are taken. */
type RegionChoice = ReadonlyMap<number, number>;

/** By region: see the module comment. */
class RegionFit implements SpreadFit {
  /** Each region's cluster indexes. */
  private readonly members: readonly number[][];
  /** Each region's room, roomiest first, rewritten by each pooled question (thousands per decision). */
  private readonly rooms: readonly Float64Array[];
  /** Per region, rewritten by each pooled question: what it could give, the regions by that, clusters taken. */
  private readonly scratch: { readonly potential: Float64Array; readonly top: Int32Array; readonly taken: Int32Array };

  constructor(
    private readonly regions: GroupBounds,
    private readonly clusterBounds: GroupBounds,
    clusters: readonly Cluster[],
    private readonly demand: SpreadDemand,
  ) {
    const byRegion = new Map<string, number[]>();
    clusters.forEach((cluster, index) => {
      const region = cluster.spec?.region;
      if (!region) return;
      let members = byRegion.get(region);
      if (!members) byRegion.set(region, (members = []));
      members.push(index);
    });
    this.members = [...byRegion.values()];
    this.rooms = this.members.map((members) => new Float64Array(members.length));
    const count = this.members.length;
    this.scratch = { potential: new Float64Array(count), top: new Int32Array(count), taken: new Int32Array(count) };
  }

  holds(available: ArrayLike<number>): boolean {
    return this.choose(available) !== undefined;
  }

  witness(available: ArrayLike<number>, preference: readonly number[]): number[] | undefined {
    const choice = this.choose(available);
    if (!choice) return undefined;
    const rank = new Map(preference.map((index, position) => [index, position]));
    const { replicas, duplicated } = this.demand;
    const ordered = (indexes: readonly number[]) =>
      indexes
        .filter((index) => !duplicated || available[index]! >= replicas)
        .sort((a, b) => Math.min(available[b]!, replicas) - Math.min(available[a]!, replicas) || rank.get(a)! - rank.get(b)!);
    const selected: number[] = [];
    const spare: number[] = [];
    let clusters = 0;
    for (const [region, taken] of choice) {
      const members = ordered(this.members[region]!);
      selected.push(...members.slice(0, taken));
      spare.push(...members.slice(taken));
      clusters += this.members[region]!.length;
    }
    const size = Math.max(choice.size, Math.min(clusters, this.clusterBounds.maxGroups));
    return [...selected, ...ordered(spare).slice(0, size - selected.length)].sort((a, b) => rank.get(a)! - rank.get(b)!);
  }

  private choose(available: ArrayLike<number>): RegionChoice | undefined {
    if (this.members.length < this.regions.minGroups) return undefined;
    return this.demand.duplicated ? this.chooseEach(available) : this.choosePooled(available);
  }

  /**
   * Each selected cluster must hold every replica, so every selected region has such a cluster (one is
   * taken from each; the selection is filled with the others). Either they number at least the cluster
   * maxGroups (then the regions with most of them do), or every cluster of the selected regions holds them
   * (then the largest such regions do); with maxGroups 0, one cluster per region is selected.
   */
  private chooseEach(available: ArrayLike<number>): RegionChoice | undefined {
    const { replicas } = this.demand;
    const regions = this.members.map((members, region) => ({
      region,
      clusters: members.length,
      holding: members.filter((index) => available[index]! >= replicas).length,
    }));
    const eligible = regions.filter((region) => region.holding > 0);
    const maxGroups = this.clusterBounds.maxGroups;
    if (maxGroups === 0) return this.mostOf(eligible, 'clusters');
    const mostHolding = this.mostOf(eligible, 'holding');
    if (mostHolding && [...mostHolding.keys()].reduce((sum, region) => sum + regions[region]!.holding, 0) >= maxGroups) return mostHolding;
    return this.mostOf(
      eligible.filter((region) => region.holding === region.clusters),
      'clusters',
    );
  }

  /**
   * As many of the regions as maxGroups allows, largest by `key` first, one cluster taken from each; undefined
   * when that is fewer than minGroups regions or they have fewer clusters than the cluster minGroups.
   */
  private mostOf(candidates: ReadonlyArray<{ region: number; clusters: number; holding: number }>, key: 'clusters' | 'holding'): RegionChoice | undefined {
    const size = Math.min(this.regions.maxGroups, candidates.length);
    if (size < this.regions.minGroups) return undefined;
    const chosen = [...candidates].sort((a, b) => b[key] - a[key] || a.region - b.region).slice(0, size);
    if (chosen.reduce((sum, region) => sum + region.clusters, 0) < this.clusterBounds.minGroups) return undefined;
    return new Map(chosen.map((region) => [region.region, 1]));
  }

  /**
   * What decides most questions without the dynamic programming: an upper bound on what any selection
   * holds (as many regions as allowed, those that could give the most, each giving at most as many
   * clusters as a selection takes), and the selection of those regions with what it holds (valid when
   * they have the cluster minGroups clusters). Written into reused arrays: the victim search asks
   * thousands of times per decision.
   */
  private mostPromising(rooms: readonly Float64Array[]): { upperBound: number; value: number; choice: RegionChoice | undefined } {
    const { minGroups: least, maxGroups: most } = this.clusterBounds;
    const regionLimit = Math.min(this.regions.maxGroups, rooms.length);
    if (regionLimit < this.regions.minGroups) return { upperBound: Number.NEGATIVE_INFINITY, value: 0, choice: undefined };
    const reach = most === 0 ? 1 : Math.max(regionLimit, most);
    const { potential, top, taken } = this.scratch;
    // The regionLimit regions of most potential (lowest index among equals), by insertion.
    let chosen = 0;
    for (let region = 0; region < rooms.length; region++) {
      const room = rooms[region]!;
      let sum = 0;
      for (let i = 0; i < Math.min(room.length, reach); i++) sum += room[i]!;
      potential[region] = sum;
      let at = Math.min(chosen, regionLimit - 1);
      if (chosen === regionLimit && potential[top[at]!]! >= sum) continue;
      while (at > 0 && potential[top[at - 1]!]! < sum) {
        top[at] = top[at - 1]!;
        at--;
      }
      top[at] = region;
      if (chosen < regionLimit) chosen++;
    }
    let upperBound = 0;
    let clusters = 0;
    let value = 0;
    taken.fill(0);
    for (let i = 0; i < regionLimit; i++) {
      const region = top[i]!;
      upperBound += potential[region]!;
      clusters += rooms[region]!.length;
      // The best cluster of each region, then (below) the roomiest of the others, merged from the sorted rooms.
      taken[region] = 1;
      value += rooms[region]![0]!;
    }
    if (clusters < least) return { upperBound, value: 0, choice: undefined };
    for (let extra = Math.max(regionLimit, Math.min(clusters, most)) - regionLimit; extra > 0; extra--) {
      let best = -1;
      for (let i = 0; i < regionLimit; i++) {
        const region = top[i]!;
        if (taken[region]! < rooms[region]!.length && (best < 0 || rooms[region]![taken[region]!]! > rooms[best]![taken[best]!]!)) best = region;
      }
      value += rooms[best]![taken[best]!++]!;
    }
    const regions = Array.from(top.subarray(0, regionLimit));
    return { upperBound, value, choice: new Map(regions.map((region) => [region, taken[region]!])) };
  }

  /**
   * The selected clusters must hold the replicas together: the best selection is found by dynamic
   * programming over the regions, taking each region's roomiest clusters, on (regions chosen, x). With a
   * cluster maxGroups, x is the clusters taken: padded with the others of their regions, as many as the
   * selection takes, they number at least the cluster minGroups exactly when their regions have that
   * many clusters (maxGroups is then at least minGroups, as validation requires). With maxGroups 0 one
   * cluster is taken per region, and x counts the clusters of the chosen regions, up to minGroups.
   */
  private choosePooled(available: ArrayLike<number>): RegionChoice | undefined {
    const { replicas } = this.demand;
    const rooms = this.rooms;
    this.members.forEach((members, region) => {
      const room = rooms[region]!;
      for (let i = 0; i < members.length; i++) room[i] = Math.min(Math.max(available[members[i]!]!, 0), replicas);
      room.sort().reverse();
    });
    const quick = this.mostPromising(rooms);
    if (quick.upperBound < replicas) return undefined;
    if (quick.choice && quick.value >= replicas) return quick.choice;

    const { minGroups: least, maxGroups: most } = this.clusterBounds;
    const onePerRegion = most === 0;
    const regionLimit = Math.min(this.regions.maxGroups, rooms.length);
    const xLimit = onePerRegion ? least : Math.min(Math.max(regionLimit, most), this.members.reduce((sum, members) => sum + members.length, 0));
    const state = (regions: number, x: number) => regions * (xLimit + 1) + x;
    let best = new Float64Array((regionLimit + 1) * (xLimit + 1)).fill(-1);
    best[0] = 0;
    const taken: Int32Array[] = [];
    const from: Int32Array[] = [];
    rooms.forEach((room, region) => {
      const next = best.slice();
      taken[region] = new Int32Array(best.length);
      from[region] = new Int32Array(best.length);
      for (let regions = 0; regions < regionLimit; regions++) {
        for (let x = 0; x <= xLimit; x++) {
          const at = state(regions, x);
          if (best[at]! < 0) continue;
          let sum = best[at]!;
          const takes = onePerRegion ? 1 : Math.min(room.length, xLimit - x);
          for (let take = 1; take <= takes; take++) {
            sum += room[take - 1]!;
            const to = state(regions + 1, onePerRegion ? Math.min(least, x + room.length) : x + take);
            if (sum > next[to]!) {
              next[to] = sum;
              taken[region]![to] = take;
              from[region]![to] = at;
            }
          }
        }
      }
      best = next;
    });

    for (let regions = this.regions.minGroups; regions <= regionLimit; regions++) {
      for (let x = 0; x <= xLimit; x++) {
        const valid = onePerRegion ? x === least : x >= Math.max(regions, least) && x <= Math.max(regions, most);
        let at = state(regions, x);
        if (!valid || !(best[at]! >= replicas)) continue;
        const choice = new Map<number, number>();
        for (let region = rooms.length - 1; region >= 0; region--) {
          const take = taken[region]![at]!;
          if (take === 0) continue;
          choice.set(region, take);
          at = from[region]![at]!;
        }
        return choice;
      }
    }
    return undefined;
  }
}
