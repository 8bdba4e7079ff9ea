/**
 * Karmada's group selection (pkg/scheduler/core/spreadconstraint/select_groups.go): of the combinations of
 * minGroups to maxGroups groups whose values (clusters) add up to the target, the one of highest weight
 * (score), then value, then found first; a combination that is a leading part of the best one (their
 * groups by weight) is preferred to it. Every combination is enumerated depth first, as Karmada does,
 * stopping a branch once it is enough: with few regions this is small, but it grows with
 * C(groups, depth) where depth is the larger of minGroups and the groups the target takes.
 */
import { byName } from '../divide/division';

export interface GroupInfo {
  readonly name: string;
  /** What the group brings towards the target: its clusters. */
  readonly value: number;
  /** Its score. */
  readonly weight: number;
}

interface Combination {
  /** Found in this order, from 1. */
  readonly id: number;
  /** By weight, highest first, then by name. */
  readonly groups: readonly GroupInfo[];
  readonly weight: number;
  readonly value: number;
}

export function selectGroups(groups: readonly GroupInfo[], minGroups: number, maxGroups: number, target: number): GroupInfo[] {
  if (groups.length === 0) return [];
  const feasible = feasibleCombinations(groups, minGroups, maxGroups, target);
  return feasible.length === 0 ? [] : [...prioritize(feasible).groups];
}

/** findFeasiblePaths: depth first over the groups by value (least first), then weight (most first), then name. */
function feasibleCombinations(groups: readonly GroupInfo[], minGroups: number, maxGroups: number, target: number): Combination[] {
  const ordered = [...groups].sort((a, b) => a.value - b.value || b.weight - a.weight || byName(a, b));
  const found: Combination[] = [];
  const path: GroupInfo[] = [];
  const visit = (sum: number, begin: number): void => {
    if (sum >= target && path.length >= minGroups && path.length <= maxGroups) {
      found.push(combination(path, found.length + 1));
      return;
    }
    if (path.length >= maxGroups) return;
    for (let index = begin; index < ordered.length; index++) {
      path.push(ordered[index]!);
      visit(sum + ordered[index]!.value, index + 1);
      // Karmada: when every group is needed to reach minGroups, only the combination of all is tried.
      if (ordered.length === minGroups) break;
      path.pop();
    }
  };
  visit(0, 0);
  return found;
}

function combination(path: readonly GroupInfo[], id: number): Combination {
  const groups = [...path].sort((a, b) => b.weight - a.weight || byName(a, b));
  return {
    id,
    groups,
    weight: groups.reduce((sum, group) => sum + group.weight, 0),
    value: groups.reduce((sum, group) => sum + group.value, 0),
  };
}

/** prioritizePaths. */
function prioritize(feasible: readonly Combination[]): Combination {
  const ranked = [...feasible].sort((a, b) => b.weight - a.weight || b.value - a.value || a.id - b.id);
  let best = ranked[0]!;
  for (const other of ranked.slice(1)) if (leadsWith(best, other)) best = other;
  return best;
}

/** Whether `part` is shorter than `whole` and names the same groups first. */
function leadsWith(whole: Combination, part: Combination): boolean {
  return part.groups.length < whole.groups.length && part.groups.every((group, index) => whole.groups[index]!.name === group.name);
}
