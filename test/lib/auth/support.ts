import type { KubeObject } from '../../../lib/api/decode';
import { decodeObject } from '../../../lib/api/decode';
import type { PriorityClass } from '../../../lib/api/priority-class';
import type { PriorityClassLookup } from '../../../lib/auth/priority-class-lookup';
import type { TenancySettings } from '../../../lib/auth/tenancy-settings';

export const ADMIN = 'arn:aws:iam::1:role/platform';
/** An admin matched through a wildcard: any session of the platform-admins role. */
export const ADMIN_SESSION = 'arn:aws:sts::1:assumed-role/platform-admins/alice';
export const TEAM_A = 'arn:aws:iam::1:role/team-a';
/** A member of team A matched through a wildcard: a session of the team-a role. */
export const TEAM_A_SESSION = 'arn:aws:sts::1:assumed-role/team-a/ci';
export const TEAM_B = 'arn:aws:iam::1:role/team-b';
/** Longer than team A's exact principal and the prefix of its wildcard, and in no tenant. */
export const STRANGER = 'arn:aws:iam::1:role/team-a-impostor';

/**
 * Two tenants. "critical" is restricted by the settings, "system-high" by its label; team-a-batch may
 * use "critical", team-b "system-high" and "reserved" (which does not exist yet).
 */
export const TENANCY: TenancySettings = {
  admins: [ADMIN, 'arn:aws:sts::1:assumed-role/platform-admins/*'],
  tenants: [
    { principals: [TEAM_A, 'arn:aws:sts::1:assumed-role/team-a/*'], namespaces: ['team-a', 'team-a-batch'] },
    { principals: [TEAM_B], namespaces: ['team-b', 'constructor'] },
  ],
  restrictedPriorityClasses: ['critical'],
  namespacePriorityClasses: { 'team-a-batch': ['critical'], 'team-b': ['system-high', 'reserved'] },
  nonPreemptibleNamespaces: ['team-a-batch'],
};

export function priorityClass(name: string, value: number, labels: Record<string, string> = {}) {
  return { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name, labels }, value };
}

export const PRIORITY_CLASSES = [
  priorityClass('low', 10),
  priorityClass('critical', 1_000_000),
  priorityClass('system-high', 100_000, { 'outrank.io/restricted': 'true' }),
  // Labelled, but not "true": not restricted.
  priorityClass('batch', 50, { 'outrank.io/restricted': 'false' }),
];

export function lookupOf(classes: readonly unknown[]): PriorityClassLookup {
  const byName = new Map(classes.map((c) => decodeObject(c) as PriorityClass).map((c) => [c.metadata.name, c]));
  return async (name) => byName.get(name);
}

export const policy = (namespace: string, priorityClassName?: string, name = 'web') =>
  decodeObject({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name, namespace },
    spec: {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
      ...(priorityClassName ? { schedulePriority: { priorityClassSource: 'KubePriorityClass', priorityClassName } } : {}),
    },
  });

export const podPriorityPolicy = (namespace: string) =>
  decodeObject({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name: 'by-pod', namespace },
    spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }], schedulePriority: { priorityClassSource: 'PodPriorityClass' } },
  });

export const deployment = (namespace: string, priorityClassName?: string) =>
  decodeObject({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace },
    spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { ...(priorityClassName ? { priorityClassName } : {}), containers: [{ name: 'main' }] } } },
  });

/** A policy declaring its work non-preemptible (preemptibility separate from priority (001)). */
export const nonPreemptiblePolicy = (namespace: string) =>
  decodeObject({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name: 'web', namespace },
    spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }], preemptibility: 'non-preemptible' },
  });

/** A Deployment with the kai.scheduler/preemptibility label on itself or on its pod template. */
export const labelledDeployment = (namespace: string, where: 'template' | 'pod template', value = 'non-preemptible') => {
  const labels = { 'kai.scheduler/preemptibility': value };
  return decodeObject({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace, ...(where === 'template' ? { labels } : {}) },
    spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web', ...(where === 'pod template' ? labels : {}) } }, spec: { containers: [{ name: 'main' }] } } },
  });
};

export const binding = (kind: 'ResourceBinding' | 'ClusterResourceBinding', namespace?: string): KubeObject =>
  decodeObject({
    apiVersion: 'work.karmada.io/v1alpha2',
    kind,
    metadata: { name: 'web-deployment', ...(namespace ? { namespace } : {}) },
    spec: { resource: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', ...(namespace ? { namespace } : {}) }, suspension: { scheduling: true } },
  });

export const cluster = () => decodeObject({ apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name: 'member1' } });

export const clusterPolicy = () =>
  decodeObject({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'ClusterPropagationPolicy',
    metadata: { name: 'everywhere' },
    spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }] },
  });

export const newPriorityClass = () => decodeObject(priorityClass('urgent', 5_000_000));
