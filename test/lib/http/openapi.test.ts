/**
 * The OpenAPI v3 documents kubectl reads: where each group-version's document is, the fieldValidation
 * parameter it looks for on each kind's PATCH (so that it validates on the server instead of asking
 * for --validate=false), and the schemas `kubectl explain` shows.
 */
import { describe, expect, it } from 'vitest';
import { SERVED_RESOURCES } from '../../../lib/http/served-resources';
import { handleApiRequest } from '../../../lib/http/handle-request';
import { schemaName } from '../../../lib/http/openapi';
import { Api } from './support';

const api = new Api();

function documentPath(resource: (typeof SERVED_RESOURCES)[number]): string {
  return resource.group ? `apis/${resource.group}/${resource.version}` : `api/${resource.version}`;
}

describe('OpenAPI v3', () => {
  it('GET /openapi/v3 lists every served group-version with the URL of its document and a hash', async () => {
    const reply = await api.get('/openapi/v3');
    expect(reply.statusCode).toBe(200);
    const expected = [...new Set(SERVED_RESOURCES.map(documentPath))].sort();
    expect(Object.keys(reply.body.paths).sort()).toEqual(expected);
    for (const key of expected) {
      expect(reply.body.paths[key].serverRelativeURL).toMatch(new RegExp(`^/openapi/v3/${key}\\?hash=[0-9A-F]{32}$`));
    }
  });

  it.each(SERVED_RESOURCES.map((resource) => [`${resource.info.plural}.${resource.group || 'core'}`, resource] as const))(
    '%s: its schema carries its group-version-kind, and each write operation the fieldValidation and dryRun parameters',
    async (_, resource) => {
      const root = await api.get('/openapi/v3');
      const url: string = root.body.paths[documentPath(resource)].serverRelativeURL;
      const reply = await api.get(url.split('?')[0]!);
      expect(reply.statusCode).toBe(200);
      const gvk = { group: resource.group, version: resource.version, kind: resource.info.kind };
      const schema = reply.body.components.schemas[schemaName(resource)];
      expect(schema['x-kubernetes-group-version-kind']).toEqual([gvk]);
      const operations = Object.values(reply.body.paths as Record<string, Record<string, any>>)
        .flatMap((item) => Object.entries(item))
        .filter(([method, operation]) => method !== 'parameters' && operation['x-kubernetes-group-version-kind'].kind === resource.info.kind);
      const methods = operations.map(([method]) => method);
      expect(methods.includes('patch')).toBe(resource.verbs.includes('patch'));
      expect(methods.includes('post')).toBe(resource.verbs.includes('create'));
      for (const [method, operation] of operations) {
        expect(operation['x-kubernetes-group-version-kind']).toEqual(gvk);
        const names = (operation.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => p.name);
        if (method === 'post' || method === 'put' || method === 'patch') expect(names).toEqual(expect.arrayContaining(['fieldValidation', 'dryRun']));
      }
    },
  );

  it('describes fields for kubectl explain, and the merge key of containers for strategic merge patches', async () => {
    const reply = await api.get('/openapi/v3/apis/apps/v1');
    const podSpec = reply.body.components.schemas['io.k8s.api.apps.v1.Deployment'].properties.spec.properties.template.properties.spec;
    expect(podSpec.additionalProperties).toBe(false);
    expect(podSpec.required).toEqual(['containers']);
    expect(podSpec.properties.containers).toMatchObject({ 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge' });
    expect(podSpec.properties.containers.items.properties.resources.properties.requests.description).toMatch(/places replicas/);
    const policies = await api.get('/openapi/v3/apis/policy.karmada.io/v1alpha1');
    const spec = policies.body.components.schemas['io.karmada.policy.v1alpha1.PropagationPolicy'].properties.spec;
    expect(spec.properties.preemption.description).toMatch(/Policy priority and preemption \(002\)/);
    const placement = spec.properties.placement.properties;
    expect(placement.spreadConstraints.items.properties.spreadByField.enum).toEqual(['cluster', 'region', 'zone', 'provider']);
    expect(placement.clusterAffinity.properties.fieldSelector.properties.matchExpressions.items.properties.key.enum).toEqual(['provider', 'region', 'zone']);
  });

  it("describes the fields of Karmada's API that outrank keeps without acting on them, saying what becomes of each", async () => {
    const policies = await api.get('/openapi/v3/apis/policy.karmada.io/v1alpha1');
    const spec = policies.body.components.schemas['io.karmada.policy.v1alpha1.PropagationPolicy'].properties.spec.properties;
    for (const field of ['propagateDeps', 'conflictResolution', 'failover', 'preserveResourcesOnDeletion']) expect(spec[field].description).toMatch(/carried to the binding/);
    for (const field of ['association', 'dependentOverrides', 'activationPreference']) expect(spec[field].description).toMatch(/kept on the policy, not acted on/);
    expect(spec.failover.properties.application.properties.purgeMode.enum).toEqual(['Directly', 'Gracefully', 'Never']);
    expect(spec.failover.properties.cluster.properties.purgeMode.enum).toEqual(['Directly', 'Gracefully']);
    expect(spec.activationPreference.enum).toEqual(['Lazy']);
    expect(spec.suspension.properties.dispatchingOnClusters.description).toMatch(/carried to the binding, not acted on/);
    expect(spec.placement.properties.workloadAffinity.description).toMatch(/not act on it/);
    expect(spec.placement.properties.clusterAffinities.items.properties.overflowAffinities.description).toMatch(/not act on them/);
    expect(spec.placement.properties.clusterAffinities.items.properties.affinityName.maxLength).toBe(32);

    const clusters = await api.get('/openapi/v3/apis/cluster.karmada.io/v1alpha1');
    const cluster = clusters.body.components.schemas['io.karmada.cluster.v1alpha1.Cluster'].properties;
    for (const field of ['id', 'syncMode', 'apiEndpoint', 'secretRef', 'impersonatorSecretRef', 'insecureSkipTLSVerification', 'proxyURL', 'proxyHeader']) {
      expect(cluster.spec.properties[field].description).toMatch(/outrank does not connect to member clusters/);
    }
    expect(cluster.spec.properties.resourceModels.items.properties.ranges.items.required).toEqual(['name', 'min', 'max']);
    expect(cluster.metadata.properties.name.maxLength).toBe(48);

    const bindings = await api.get('/openapi/v3/apis/work.karmada.io/v1alpha2');
    const binding = bindings.body.components.schemas['io.karmada.work.v1alpha2.ResourceBinding'].properties;
    for (const field of ['propagateDeps', 'conflictResolution', 'preserveResourcesOnDeletion']) expect(binding.spec.properties[field].description).toMatch(/carried for whatever propagates placements/);
    expect(binding.status.properties.aggregatedStatus.items.properties.health.enum).toEqual(['Healthy', 'Unhealthy', 'Unknown']);
  });

  it('serves OpenAPI v2 empty, in protobuf as kubectl asks for it, so that kubectl skips what it does not define as against kube-apiserver', async () => {
    const protobuf = await handleApiRequest(
      { method: 'GET', path: '/openapi/v2', query: {}, headers: { accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' }, body: undefined },
      { objects: api.system.objects, store: api.system.store, events: api.system.events },
    );
    expect(protobuf).toEqual({ statusCode: 200, headers: { 'content-type': 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf' }, body: '' });
    expect((await api.get('/openapi/v2')).body).toEqual({ swagger: '2.0', info: { title: 'outrank', version: 'v2' }, paths: {} });
  });

  it.each(['/openapi/v2/apis', '/openapi/v3/apis/example.com/v1', '/openapi/v3/apis/apps'])('%s is a 404 Status', async (path) => {
    const reply = await api.get(path);
    expect(reply.statusCode).toBe(404);
    expect(reply.body).toMatchObject({ kind: 'Status', reason: 'NotFound' });
  });
});
