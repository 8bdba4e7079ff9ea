import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Api } from './support';

/**
 * Valid manifests of every writable kind, each broken by one hostile change at a known field: the
 * answer must be a 4xx Status whose message names that field, and nothing may be written.
 */
const BASES = {
  priorityClass: {
    path: '/apis/scheduling.k8s.io/v1/priorityclasses',
    object: { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'fuzz' }, value: 10 },
  },
  cluster: {
    path: '/apis/cluster.karmada.io/v1alpha1/clusters',
    object: {
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name: 'fuzz', labels: { zone: 'a' } },
      spec: { provider: 'aws' },
      status: { resourceSummary: { allocatable: { cpu: '8', memory: '16Gi' } } },
    },
  },
  policy: {
    path: '/apis/policy.karmada.io/v1alpha1/namespaces/default/propagationpolicies',
    object: {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'PropagationPolicy',
      metadata: { name: 'fuzz', namespace: 'default' },
      spec: {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
        priority: 1,
        placement: { clusterAffinity: { clusterNames: ['m1'] }, replicaScheduling: { replicaSchedulingType: 'Divided' } },
      },
    },
  },
  deployment: {
    path: '/apis/apps/v1/namespaces/default/deployments',
    object: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'fuzz', namespace: 'default' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'fuzz' } }, template: { metadata: { labels: { app: 'fuzz' } }, spec: { containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '1', memory: '1Gi' } } }] } } },
    },
  },
} as const;
type Base = keyof typeof BASES;

interface Hostility {
  readonly base: Base;
  /** Path segments to the field changed, and the field path the error must name. */
  readonly at: readonly (string | number)[];
  readonly field: string;
  readonly value: unknown;
}

const hugeNumbers = fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 2 ** 63, 1e308, Number.MAX_SAFE_INTEGER + 2);
const wrongTypes = fc.oneof(fc.string({ maxLength: 20 }).map((s) => `x${s}`), fc.constant(true), fc.constant({}), fc.constant([1]), fc.constant(null));
const negativeQuantities = fc.oneof(fc.integer({ min: 1, max: 1_000_000 }).map((n) => `-${n}`), fc.integer({ min: 1, max: 1_000 }).map((n) => `-${n}Gi`), fc.integer({ min: 1, max: 9 }).map((n) => -n));
const longStrings = fc.integer({ min: 300, max: 100_000 }).map((n) => 'a'.repeat(n));
const unknownNames = fc.stringMatching(/^[a-z][a-zA-Z]{2,12}$/).filter((name) => !['spec', 'status', 'metadata', 'value', 'kind', 'description', 'preemptionPolicy', 'globalDefault', 'apiVersion'].includes(name));
const deepValues = fc.integer({ min: 2, max: 60 }).map((depth) => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i += 1) value = { nested: value };
  return value;
});

const hostility: fc.Arbitrary<Hostility> = fc.oneof(
  hugeNumbers.map((value) => ({ base: 'priorityClass' as const, at: ['value'], field: 'value', value })),
  hugeNumbers.map((value) => ({ base: 'policy' as const, at: ['spec', 'priority'], field: 'spec.priority', value })),
  hugeNumbers.map((value) => ({ base: 'deployment' as const, at: ['spec', 'replicas'], field: 'spec.replicas', value })),
  wrongTypes.map((value) => ({ base: 'priorityClass' as const, at: ['value'], field: 'value', value })),
  wrongTypes.map((value) => ({ base: 'policy' as const, at: ['spec', 'placement', 'clusterAffinity', 'clusterNames'], field: 'spec.placement.clusterAffinity.clusterNames', value })),
  wrongTypes.map((value) => ({ base: 'deployment' as const, at: ['spec', 'replicas'], field: 'spec.replicas', value })),
  negativeQuantities.map((value) => ({ base: 'deployment' as const, at: ['spec', 'template', 'spec', 'containers', 0, 'resources', 'requests', 'cpu'], field: 'cpu', value })),
  negativeQuantities.map((value) => ({ base: 'cluster' as const, at: ['status', 'resourceSummary', 'allocatable', 'memory'], field: 'status.resourceSummary.allocatable.memory', value })),
  longStrings.map((value) => ({ base: 'policy' as const, at: ['metadata', 'name'], field: 'metadata.name', value })),
  longStrings.map((value) => ({ base: 'cluster' as const, at: ['metadata', 'labels', 'zone'], field: 'metadata.labels.zone', value })),
  unknownNames.map((name) => ({ base: 'priorityClass' as const, at: [name], field: name, value: 1 })),
  unknownNames.map((name) => ({ base: 'policy' as const, at: ['spec', name], field: `spec.${name}`, value: 'x' })),
  deepValues.map((value) => ({ base: 'cluster' as const, at: ['spec', 'taints'], field: 'spec.taints', value })),
);

function withChange(object: unknown, at: readonly (string | number)[], value: unknown): unknown {
  const copy = structuredClone(object) as Record<string | number, unknown>;
  let cursor = copy;
  for (const segment of at.slice(0, -1)) cursor = cursor[segment] as Record<string | number, unknown>;
  cursor[at[at.length - 1]!] = value;
  return copy;
}

describe('hostile manifests', () => {
  it('get a 4xx Status naming the field, and change nothing', async () => {
    const api = new Api();
    for (const { path, object } of Object.values(BASES)) {
      const created = await api.send('POST', path, { body: object });
      expect(created.statusCode).toBe(201);
      await api.send('DELETE', `${path}/fuzz`);
    }
    const before = await api.snapshot();
    await fc.assert(
      fc.asyncProperty(hostility, fc.constantFrom('json', 'yaml'), async ({ base, at, field, value }, syntax) => {
        const { path, object } = BASES[base];
        const manifest = withChange(object, at, value);
        const reply = await api.send('POST', path, syntax === 'json' ? { body: manifest } : { text: JSON.stringify(manifest), contentType: 'application/yaml' });
        expect(reply.statusCode).toBeGreaterThanOrEqual(400);
        expect(reply.statusCode).toBeLessThan(500);
        expect(reply.body).toMatchObject({ kind: 'Status', status: 'Failure' });
        expect(reply.body.message).toContain(field);
        expect(await api.snapshot()).toEqual(before);
      }),
      { numRuns: 2_000 },
    );
    expect(api.internalErrors).toEqual([]);
  });
});
