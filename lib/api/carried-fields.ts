import type { KubeObject } from './decode';
import { fieldPath } from './invalid-object-error';
import { isPlainObject, sameJson } from './plain-object';

/**
 * The fields of Karmada's API that outrank accepts and keeps but does not act on, and what becomes of
 * each: a write carrying one is answered with a Warning saying so, never silently. The README's Object
 * reference lists them. `*` stands for every item of a list.
 */
interface CarriedField {
  readonly path: readonly string[];
  readonly fate: string;
}

const FOR_PROPAGATION = 'carried to the binding for whatever propagates placements; outrank does not act on it';
const NOT_CONNECTED = 'stored; outrank does not connect to member clusters';

const POLICY_FIELDS: readonly CarriedField[] = [
  { path: ['spec', 'propagateDeps'], fate: FOR_PROPAGATION },
  { path: ['spec', 'conflictResolution'], fate: FOR_PROPAGATION },
  { path: ['spec', 'failover'], fate: FOR_PROPAGATION },
  { path: ['spec', 'preserveResourcesOnDeletion'], fate: FOR_PROPAGATION },
  { path: ['spec', 'suspension', 'dispatching'], fate: FOR_PROPAGATION },
  { path: ['spec', 'suspension', 'dispatchingOnClusters'], fate: FOR_PROPAGATION },
  { path: ['spec', 'placement', 'clusterAffinities', '*', 'overflowAffinities'], fate: FOR_PROPAGATION },
  { path: ['spec', 'placement', 'workloadAffinity'], fate: FOR_PROPAGATION },
  { path: ['spec', 'association'], fate: 'stored on the policy; outrank does not act on it (Karmada deprecated it for propagateDeps)' },
  { path: ['spec', 'dependentOverrides'], fate: 'stored on the policy; outrank does not act on it: the policy applies without waiting for OverridePolicies' },
  { path: ['spec', 'activationPreference'], fate: 'stored on the policy; outrank does not act on it: policy changes apply to their templates at once' },
];

const CLUSTER_FIELDS: readonly CarriedField[] = [
  ...['id', 'syncMode', 'apiEndpoint', 'secretRef', 'impersonatorSecretRef', 'insecureSkipTLSVerification', 'proxyURL', 'proxyHeader'].map((name) => ({
    path: ['spec', name],
    fate: NOT_CONNECTED,
  })),
  { path: ['spec', 'resourceModels'], fate: 'stored; outrank does not act on it: it places by status.resourceSummary.allocatable' },
];

/** Of a binding, users change only spec.suspension and spec.rescheduleTriggeredAt; the rest is outrank's own copy. */
const BINDING_FIELDS: readonly CarriedField[] = [
  { path: ['spec', 'suspension', 'dispatching'], fate: 'kept for whatever propagates placements; outrank does not act on it' },
  { path: ['spec', 'suspension', 'dispatchingOnClusters'], fate: 'kept for whatever propagates placements; outrank does not act on it' },
];

function fieldsOf(object: KubeObject): readonly CarriedField[] {
  switch (object.kind) {
    case 'PropagationPolicy':
    case 'ClusterPropagationPolicy':
      return POLICY_FIELDS;
    case 'Cluster':
      return CLUSTER_FIELDS;
    case 'ResourceBinding':
    case 'ClusterResourceBinding':
      return BINDING_FIELDS;
    default:
      return [];
  }
}

interface Occurrence {
  readonly at: readonly PropertyKey[];
  readonly value: unknown;
}

/**
 * Adds to `found` the concrete paths (list items numbered) below `at` at which `value` has the field
 * `path[depth..]`, with what it holds there. Every write is checked and most carry none of the fields:
 * a path is copied only when found.
 */
function collectOccurrences(value: unknown, path: readonly string[], depth: number, at: PropertyKey[], found: Occurrence[]): void {
  if (depth === path.length) {
    if (value !== undefined) found.push({ at: [...at], value });
    return;
  }
  const head = path[depth]!;
  if (head === '*') {
    if (!Array.isArray(value)) return;
    for (let index = 0; index < value.length; index += 1) {
      at.push(index);
      collectOccurrences(value[index], path, depth + 1, at, found);
      at.pop();
    }
    return;
  }
  if (!isPlainObject(value) || !Object.hasOwn(value, head)) return;
  at.push(head);
  collectOccurrences(value[head], path, depth + 1, at, found);
  at.pop();
}

function valueAt(value: unknown, at: readonly PropertyKey[]): unknown {
  return at.reduce<unknown>((node, key) => (isPlainObject(node) || Array.isArray(node) ? (node as Record<PropertyKey, unknown>)[key] : undefined), value);
}

/**
 * The warnings a write of `object` over `existing` gets for the fields outrank does not act on: each one
 * the object carries; of a binding, which outrank writes, each one the write changes.
 */
export function carriedFieldWarnings(object: KubeObject, existing: KubeObject | undefined): string[] {
  const binding = object.kind === 'ResourceBinding' || object.kind === 'ClusterResourceBinding';
  const warnings: string[] = [];
  const found: Occurrence[] = [];
  for (const { path, fate } of fieldsOf(object)) {
    found.length = 0;
    collectOccurrences(object, path, 0, [], found);
    for (const { at, value } of found) if (!binding || !sameJson(value, valueAt(existing, at))) warnings.push(`${fieldPath(at)}: ${fate}`);
  }
  return warnings;
}
