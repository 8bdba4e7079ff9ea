/**
 * A Karmada user's manifests apply unchanged: the Clusters, templates and policies of
 * test/fixtures/karmada (written in the shapes of Karmada's samples, its documentation's policy examples
 * and its API types, using every field of PropagationSpec and ClusterSpec) are created through the API
 * under fieldValidation=Strict. Every one is accepted and reads back as written; the bindings are named and
 * carry the policy fields as Karmada's detector makes them (pkg/detector/detector.go,
 * BuildResourceBinding); each write carrying a field outrank does not act on is told so in a Warning header.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseManifests } from '../../../lib/api/manifest';
import { manifestPath, type Manifest } from '../../support/api-paths';
import { Api, type Reply } from './support';

const fixture = (file: string) => parseManifests(readFileSync(new URL(`../../fixtures/karmada/${file}`, import.meta.url), 'utf8')) as Array<Manifest & Record<string, any>>;

const clusters = fixture('clusters.yaml');
const workloads = fixture('workloads.yaml');
const policies = fixture('policies.yaml');

const STRICT = { fieldValidation: 'Strict' };
const CARRIED = 'carried to the binding for whatever propagates placements; outrank does not act on it';
const NOT_CONNECTED = 'stored; outrank does not connect to member clusters';

/** The texts of a Warning header as Kubernetes writes it: `299 - "text"`, comma-separated. */
function warningsOf(reply: Reply): string[] {
  const header = reply.headers.warning ?? '';
  return [...header.matchAll(/299 - ("(?:[^"\\]|\\.)*")/g)].map((match) => JSON.parse(match[1]!) as string);
}

function byName<T extends Manifest>(manifests: readonly T[], name: string): T {
  return manifests.find((manifest) => manifest.metadata.name === name)!;
}

/** The replies to creating each manifest, by `<kind>/<name>`. */
async function createAll(api: Api, manifests: readonly Manifest[]): Promise<Map<string, Reply>> {
  const replies = new Map<string, Reply>();
  for (const manifest of manifests) replies.set(`${manifest.kind}/${manifest.metadata.name}`, await api.send('POST', manifestPath(manifest), { body: manifest, query: STRICT }));
  return replies;
}

async function loaded(): Promise<{ api: Api; replies: Map<string, Reply> }> {
  const api = new Api();
  const replies = new Map([...(await createAll(api, clusters)), ...(await createAll(api, workloads)), ...(await createAll(api, policies))]);
  await api.system.runUntilIdle();
  return { api, replies };
}

const binding = (api: Api, namespace: string, name: string) => api.get(`/apis/work.karmada.io/v1alpha2/namespaces/${namespace}/resourcebindings/${name}`);

describe("Karmada's manifests under fieldValidation=Strict", () => {
  it('accepts every one', async () => {
    const { api, replies } = await loaded();
    for (const [name, reply] of replies) expect({ name, status: reply.statusCode, body: reply.statusCode === 201 ? 'created' : reply.body }).toEqual({ name, status: 201, body: 'created' });
    expect(api.internalErrors).toEqual([]);
  });

  it('tells, for each field outrank does not act on, what becomes of it in a Warning header', async () => {
    const { replies } = await loaded();
    expect(warningsOf(replies.get('Cluster/eu-central')!)).toEqual([
      `spec.id: ${NOT_CONNECTED}`,
      `spec.syncMode: ${NOT_CONNECTED}`,
      `spec.apiEndpoint: ${NOT_CONNECTED}`,
      `spec.secretRef: ${NOT_CONNECTED}`,
      `spec.impersonatorSecretRef: ${NOT_CONNECTED}`,
      `spec.insecureSkipTLSVerification: ${NOT_CONNECTED}`,
      'spec.resourceModels: stored; outrank does not act on it: it places by status.resourceSummary.allocatable',
    ]);
    expect(warningsOf(replies.get('Cluster/eu-west')!)).toEqual([
      `spec.syncMode: ${NOT_CONNECTED}`,
      `spec.apiEndpoint: ${NOT_CONNECTED}`,
      `spec.proxyURL: ${NOT_CONNECTED}`,
      `spec.proxyHeader: ${NOT_CONNECTED}`,
    ]);
    expect(warningsOf(replies.get('PropagationPolicy/storefront')!)).toEqual([
      `spec.propagateDeps: ${CARRIED}`,
      `spec.conflictResolution: ${CARRIED}`,
      `spec.failover: ${CARRIED}`,
      `spec.preserveResourcesOnDeletion: ${CARRIED}`,
      `spec.suspension.dispatchingOnClusters: ${CARRIED}`,
      `spec.placement.clusterAffinities[0].overflowAffinities: ${CARRIED}`,
      `spec.placement.workloadAffinity: ${CARRIED}`,
      'spec.dependentOverrides: stored on the policy; outrank does not act on it: the policy applies without waiting for OverridePolicies',
      'spec.activationPreference: stored on the policy; outrank does not act on it: policy changes apply to their templates at once',
    ]);
    expect(warningsOf(replies.get('PropagationPolicy/checkout')!)).toEqual([
      `spec.conflictResolution: ${CARRIED}`,
      `spec.failover: ${CARRIED}`,
      `spec.preserveResourcesOnDeletion: ${CARRIED}`,
      `spec.suspension.dispatching: ${CARRIED}`,
      'spec.association: stored on the policy; outrank does not act on it (Karmada deprecated it for propagateDeps)',
    ]);
    expect(warningsOf(replies.get('ClusterPropagationPolicy/cluster-wide')!)).toEqual([`spec.propagateDeps: ${CARRIED}`, `spec.conflictResolution: ${CARRIED}`, `spec.failover: ${CARRIED}`]);
    for (const workload of workloads) expect(replies.get(`Deployment/${workload.metadata.name}`)!.headers.warning).toBeUndefined();
  });

  it('reads every policy back as written, and every Cluster too but for zone, moved to zones as Karmada does', async () => {
    const { api } = await loaded();
    for (const policy of policies) {
      const path = `${manifestPath(policy)}/${policy.metadata.name}`;
      expect((await api.get(path)).body.spec).toEqual(policy.spec);
    }
    for (const cluster of clusters) {
      const reply = await api.get(`${manifestPath(cluster)}/${cluster.metadata.name}`);
      const { zone, ...rest } = cluster.spec;
      expect(reply.body.spec).toEqual(zone ? { ...rest, zones: [zone] } : cluster.spec);
    }
  });

  it('makes the bindings Karmada would: named <template>-<kind>, labelled with their policy, carrying its fields', async () => {
    const { api } = await loaded();
    const storefront = byName(policies, 'storefront');
    const stored = (await binding(api, 'shop', 'storefront-deployment')).body;
    expect(stored.metadata.labels).toEqual({ 'propagationpolicy.karmada.io/namespace': 'shop', 'propagationpolicy.karmada.io/name': 'storefront' });
    expect(stored.spec).toMatchObject({
      resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'storefront' },
      replicas: 4,
      propagateDeps: true,
      placement: storefront.spec.placement,
      failover: storefront.spec.failover,
      conflictResolution: 'Overwrite',
      preserveResourcesOnDeletion: true,
      suspension: { dispatchingOnClusters: { clusterNames: ['us-east'] } },
      clusters: [{ name: 'eu-central', replicas: 4 }],
    });

    const checkout = (await binding(api, 'shop', 'checkout-deployment')).body;
    expect(checkout.spec).toMatchObject({
      conflictResolution: 'Abort',
      preserveResourcesOnDeletion: false,
      failover: { cluster: { purgeMode: 'Gracefully' } },
      suspension: { dispatching: true },
      placement: byName(policies, 'checkout').spec.placement,
    });
    expect(checkout.spec).not.toHaveProperty('propagateDeps');
    expect(checkout.spec.clusters).toEqual([{ name: 'eu-central', replicas: 1 }, { name: 'eu-west', replicas: 1 }]);

    // A ClusterPropagationPolicy claiming a namespaced template makes a ResourceBinding (detector.go, ApplyClusterPolicy).
    const ledger = (await binding(api, 'finance', 'ledger-deployment')).body;
    expect(ledger.metadata.labels).toEqual({ 'clusterpropagationpolicy.karmada.io/name': 'cluster-wide' });
    expect(ledger.spec).toMatchObject({ propagateDeps: true, conflictResolution: 'Overwrite', failover: { application: { decisionConditions: {}, purgeMode: 'Never' } } });
    expect([...ledger.spec.clusters].sort((a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name))).toEqual([
      { name: 'eu-central', replicas: 3 },
      { name: 'us-east', replicas: 3 },
    ]);
  });

  it('a change of a carried field is carried to the binding, its placement kept, and the write is warned of', async () => {
    const { api } = await loaded();
    const path = `${manifestPath(byName(policies, 'storefront'))}/storefront`;
    const before = (await binding(api, 'shop', 'storefront-deployment')).body;
    const patch = { spec: { conflictResolution: 'Abort', preserveResourcesOnDeletion: null, suspension: { dispatchingOnClusters: null, dispatching: true } } };
    const reply = await api.send('PATCH', path, { body: patch, contentType: 'application/merge-patch+json', query: STRICT });
    expect(reply.statusCode).toBe(200);
    expect(warningsOf(reply)).toEqual(expect.arrayContaining([`spec.conflictResolution: ${CARRIED}`, `spec.suspension.dispatching: ${CARRIED}`]));
    expect(warningsOf(reply).some((warning) => warning.startsWith('spec.preserveResourcesOnDeletion'))).toBe(false);
    await api.system.runUntilIdle();
    const stored = (await binding(api, 'shop', 'storefront-deployment')).body;
    expect(stored.spec).toMatchObject({ conflictResolution: 'Abort', suspension: { dispatching: true }, clusters: [{ name: 'eu-central', replicas: 4 }] });
    expect(stored.spec).not.toHaveProperty('preserveResourcesOnDeletion');
    // One spec change: the policy's; the placement, kept, moves nothing.
    expect(stored.metadata.generation).toBe(before.metadata.generation + 1);
  });

  it('server-side apply of a Karmada manifest is accepted and warned of alike', async () => {
    const { api } = await loaded();
    const checkout = byName(policies, 'checkout');
    const reply = await api.send('PATCH', `${manifestPath(checkout)}/checkout`, {
      text: JSON.stringify({ ...checkout, spec: { ...checkout.spec, propagateDeps: true } }),
      contentType: 'application/apply-patch+yaml',
      query: { ...STRICT, force: 'true' },
    });
    expect(reply.statusCode).toBe(200);
    expect(warningsOf(reply)).toContain(`spec.propagateDeps: ${CARRIED}`);
  });
});

describe("Karmada's validation of the fields outrank carries, through the API", () => {
  it.each<[string, Record<string, unknown>, string, string]>([
    ['application failover without propagateDeps', { propagateDeps: null }, 'spec.propagateDeps', 'application failover is set, propagateDeps must be true'],
    [
      'a grace period with purge mode Directly',
      { failover: { application: { decisionConditions: { tolerationSeconds: 120 }, purgeMode: 'Directly', gracePeriodSeconds: 300 } } },
      'spec.failover.application.gracePeriodSeconds',
      'only takes effect when purgeMode is gracefully',
    ],
    [
      'dispatching together with dispatchingOnClusters',
      { suspension: { dispatching: true, dispatchingOnClusters: { clusterNames: ['us-east'] } } },
      'spec.suspension',
      'suspension dispatching cannot co-exist with dispatchingOnClusters.clusterNames',
    ],
    ['a misspelt field of failover (Strict)', { failover: { application: { decisionCondition: {} } } }, 'spec.failover.application.decisionCondition', 'unknown field'],
  ])('%s is a 422 naming the field, and nothing is written', async (_, change, field, message) => {
    const api = new Api();
    const storefront = byName(policies, 'storefront');
    const spec = Object.fromEntries(Object.entries({ ...storefront.spec, ...change }).filter(([, value]) => value !== null));
    const before = await api.snapshot();
    const reply = await api.send('POST', manifestPath(storefront), { body: { ...storefront, spec }, query: STRICT });
    expect(reply.statusCode).toBe(422);
    expect(reply.body.details.causes).toContainEqual({ field, message, reason: 'FieldValueInvalid' });
    expect(await api.snapshot()).toEqual(before);
  });
});
