/**
 * Shared vocabulary of the replica-division step (filter → score → select → assign replicas):
 * what a division gets as input, what it returns, and the checks every division applies to its input.
 */

/** A selected cluster and how many more replicas of the binding fit there (already estimated; may be 0). */
export interface ClusterCapacity {
  readonly name: string;
  readonly availableReplicas: number;
}

/** Structurally the same as the API's TargetCluster, so results can be written into a binding's spec.clusters. */
export interface TargetCluster {
  name: string;
  replicas: number;
}

export type Division =
  /** Sorted by cluster name; no zero-replica entries, except Duplicated with replicas 0. */
  | { ok: true; targets: TargetCluster[] }
  /** shortfall: how many replicas could not be placed (>= 1). */
  | { ok: false; reason: string; shortfall: number };

/**
 * Orders by name with plain code-unit comparison rather than localeCompare, so the order does not depend on the
 * host's locale and matches Go's byte-wise string order for the ASCII names Kubernetes allows.
 */
export function byName(a: { readonly name: string }, b: { readonly name: string }): number {
  if (a.name === b.name) return 0;
  return a.name < b.name ? -1 : 1;
}

export function sumOf(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0);
}

/** Replica counts and capacities are whole, non-negative and exactly representable; anything else is a caller bug. */
export function assertCount(what: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${what} must be a non-negative safe integer, got ${value}`);
  }
}

/**
 * Rejects input no division can answer deterministically: a name listed twice would make the result depend on
 * which entry wins, breaking the promise that input order never matters.
 */
export function assertDivisionInput(replicas: number, clusters: readonly ClusterCapacity[]): void {
  assertCount('replicas', replicas);
  assertUniqueNames(clusters);
  for (const cluster of clusters) assertCount(`availableReplicas of cluster ${cluster.name}`, cluster.availableReplicas);
}

/** Weights are integers, as Karmada's int64 weights are, so that apportionment can compare them exactly. */
export function assertWeight(name: string, weight: number): void {
  if (!Number.isSafeInteger(weight)) throw new RangeError(`weight of ${name} must be a safe integer, got ${weight}`);
}

export function assertUniqueNames(entries: readonly { readonly name: string }[]): void {
  const seen = new Set<string>();
  for (const { name } of entries) {
    if (seen.has(name)) throw new RangeError(`cluster ${name} is listed more than once`);
    seen.add(name);
  }
}
