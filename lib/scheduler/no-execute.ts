import type { Cluster, Taint } from '../api/cluster';
import type { Toleration } from '../api/propagation-policy';
import { tolerates } from './cluster-filter';

/**
 * What a cluster's NoExecute taints mean for a binding placed there, by the rules of Karmada's taint
 * manager (pkg/controllers/cluster/taint_manager.go, needEviction): evicted now (a taint it does not
 * tolerate, or its toleration's seconds ran out), at a later time (tolerated for tolerationSeconds from
 * the taint's timeAdded), or never (no NoExecute taint, or tolerated without limit).
 */
export type NoExecuteVerdict =
  | { readonly evict: 'never' }
  | { readonly evict: 'now'; readonly taint: Taint; readonly why: 'untolerated' | 'expired' }
  | { readonly evict: 'later'; readonly at: number; readonly taint: Taint };

const NEVER: NoExecuteVerdict = { evict: 'never' };

export function noExecuteTaints(cluster: Cluster): Taint[] {
  return (cluster.spec?.taints ?? []).filter((taint) => taint.effect === 'NoExecute');
}

/**
 * The toleration that tolerates each taint (the first that does), or undefined with the first taint
 * none tolerates: Karmada's helper.GetMatchingTolerations (pkg/util/helper/taint.go).
 */
export function matchingTolerations(taints: readonly Taint[], tolerations: readonly Toleration[]): { readonly used: Toleration[] } | { readonly untolerated: Taint } {
  const used: Toleration[] = [];
  for (const taint of taints) {
    const toleration = tolerations.find((candidate) => tolerates(candidate, taint));
    if (!toleration) return { untolerated: taint };
    used.push(toleration);
  }
  return { used };
}

/**
 * When the tolerations stop tolerating the taints, at the earliest: each toleration with
 * tolerationSeconds, from the timeAdded of each taint it tolerates (a taint without one counts as
 * tolerated without limit); undefined when none ends. Karmada's helper.GetMinTolerationTimeWithCurrentTime
 * as a time rather than a duration.
 */
export function tolerationEnd(taints: readonly Taint[], used: readonly Toleration[]): { readonly at: number; readonly taint: Taint } | undefined {
  // Taints that nothing tolerates end at once.
  if (taints.length > 0 && used.length === 0) return { at: Number.NEGATIVE_INFINITY, taint: taints[0]! };
  let earliest: { at: number; taint: Taint } | undefined;
  for (const toleration of used) {
    if (toleration.tolerationSeconds === undefined) continue;
    for (const taint of taints) {
      const added = Date.parse(taint.timeAdded ?? '');
      if (Number.isNaN(added) || !tolerates(toleration, taint)) continue;
      const at = added + toleration.tolerationSeconds * 1_000;
      if (!earliest || at < earliest.at) earliest = { at, taint };
    }
  }
  return earliest;
}

/** Karmada's needEvictionWithCurrentTime: evicted at `now` when the toleration ends then or before. */
export function noExecuteVerdict(cluster: Cluster, tolerations: readonly Toleration[], now: number): NoExecuteVerdict {
  const taints = noExecuteTaints(cluster);
  if (taints.length === 0) return NEVER;
  const matching = matchingTolerations(taints, tolerations);
  if ('untolerated' in matching) return { evict: 'now', taint: matching.untolerated, why: 'untolerated' };
  const end = tolerationEnd(taints, matching.used);
  if (!end) return NEVER;
  return end.at <= now ? { evict: 'now', taint: end.taint, why: 'expired' } : { evict: 'later', at: end.at, taint: end.taint };
}

/** A taint as Kubernetes prints it: key=value:Effect. */
export function describeTaint(taint: Taint): string {
  return `${taint.key}${taint.value ? `=${taint.value}` : ''}:${taint.effect}`;
}
