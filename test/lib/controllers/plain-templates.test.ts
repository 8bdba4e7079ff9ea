/**
 * Whole application bundles bind: policies claim Services, ConfigMaps, Secrets, ServiceAccounts, RBAC
 * objects, Namespaces, CustomResourceDefinitions and custom resources as they claim workloads. Each
 * binding is named as Karmada names it, has no replicas and no request (Karmada's detector: no replica
 * interpreter), and is placed on every cluster its placement selects (pkg/scheduler/core/common.go,
 * AssignReplicas), moving no cluster's allocation. OverridePolicies are stored, never claimed.
 */
import { describe, expect, it } from 'vitest';
import { bindingName } from '../../../lib/api/binding-name';
import type { ObjectRef } from '../../../lib/api/kinds';
import type { ResourceBinding } from '../../../lib/api/resource-binding';
import { apiGroupOf } from '../../../lib/api/resource-template';
import type { ClusterAllocation } from '../../../lib/controllers/allocations';
import type { MemorySystem } from '../../../lib/runtime/memory-system';
import { BUNDLE_OBJECTS, cronTab, cronTabDefinition } from '../../support/bundle-objects';
import { applyAll, cluster, clusterPropagationPolicy, deployment, newSystem, propagationPolicy, type Manifest } from './support';

function bindingRef(template: Manifest): ObjectRef {
  const namespace = (template.metadata as { namespace?: string }).namespace;
  return {
    group: 'work.karmada.io',
    kind: namespace ? 'ResourceBinding' : 'ClusterResourceBinding',
    namespace: namespace ?? '',
    name: bindingName((template.metadata as { name: string }).name, template.kind as string),
  };
}

async function bindingFor(system: MemorySystem, template: Manifest): Promise<ResourceBinding | undefined> {
  return system.store.get<ResourceBinding>(bindingRef(template));
}

/** What outrank placed on each cluster, by its ClusterAllocation records. */
async function allocations(system: MemorySystem): Promise<Record<string, unknown>> {
  const records = await system.store.list<ClusterAllocation>('scheduling.outrank.io', 'ClusterAllocation');
  return Object.fromEntries(records.map((record) => [record.metadata.name, record.spec.placed]));
}

const selectorOf = (template: Manifest) => ({ apiVersion: template.apiVersion as string, kind: template.kind as string, name: (template.metadata as { name: string }).name });

const fleet = () => [cluster('m1', { cpu: '2' }, { labels: { tier: 'core' } }), cluster('m2', { cpu: '2' }, { labels: { tier: 'core' } }), cluster('edge', { cpu: '2' }, { labels: { tier: 'edge' } })];

describe('templates without replicas bind and are placed whole', () => {
  it('binds a ConfigMap with no replicas and no request, onto every cluster the affinity selects, allocating nothing', async () => {
    const system = newSystem();
    const config = BUNDLE_OBJECTS.ConfigMap!();
    await applyAll(system, [...fleet(), propagationPolicy('config', { resourceSelectors: [selectorOf(config)], placement: { clusterAffinity: { labelSelector: { matchLabels: { tier: 'core' } } } } }), config]);
    const binding = (await bindingFor(system, config))!;
    expect(binding.metadata.name).toBe('web-config-configmap');
    expect(binding.spec).not.toHaveProperty('replicas');
    expect(binding.spec).not.toHaveProperty('replicaRequirements');
    expect(binding.spec.clusters).toEqual([{ name: 'm1', replicas: 0 }, { name: 'm2', replicas: 0 }]);
    expect(binding.status?.conditions).toContainEqual(expect.objectContaining({ type: 'Scheduled', status: 'True', reason: 'Success' }));
    expect(await allocations(system)).toEqual({});
  });

  it('binds a whole bundle under its policies: each binding placed on the selected clusters, the workload by its replicas', async () => {
    const system = newSystem();
    const plain = ['Service', 'ConfigMap', 'Secret', 'ServiceAccount', 'Role', 'RoleBinding'].map((kind) => BUNDLE_OBJECTS[kind]!());
    const clusterScoped = ['Namespace', 'ClusterRole', 'ClusterRoleBinding'].map((kind) => BUNDLE_OBJECTS[kind]!());
    const web = deployment('web', { replicas: 2, requests: { cpu: '500m' } });
    const job = cronTab('nightly');
    await applyAll(system, [
      ...fleet(),
      cronTabDefinition(),
      propagationPolicy('shop', { resourceSelectors: [web, ...plain, job].map(selectorOf), placement: { clusterAffinity: { clusterNames: ['m1', 'm2'] } } }),
      clusterPropagationPolicy('shop-cluster', { resourceSelectors: [...clusterScoped, cronTabDefinition()].map(selectorOf) }),
      web,
      ...plain,
      ...clusterScoped,
      job,
    ]);
    for (const template of [...plain, job]) {
      const binding = await bindingFor(system, template);
      expect(binding?.spec.clusters, `${template.kind as string}`).toEqual([{ name: 'm1', replicas: 0 }, { name: 'm2', replicas: 0 }]);
      expect(binding?.spec.resource).toMatchObject({ apiVersion: template.apiVersion, kind: template.kind, namespace: 'default' });
    }
    for (const template of [...clusterScoped, cronTabDefinition()]) {
      const binding = await bindingFor(system, template);
      expect(binding?.kind, `${template.kind as string}`).toBe('ClusterResourceBinding');
      expect(binding?.spec.clusters).toEqual([{ name: 'edge', replicas: 0 }, { name: 'm1', replicas: 0 }, { name: 'm2', replicas: 0 }]);
    }
    expect((await bindingFor(system, BUNDLE_OBJECTS.ClusterRole!()))?.metadata.name).toBe('system.web-metrics-clusterrole');
    expect((await bindingFor(system, web))?.spec.clusters).toEqual([{ name: 'm1', replicas: 2 }, { name: 'm2', replicas: 2 }]);
    // Millicores: the workload's two replicas of 500m on each; the rest of the bundle holds nothing.
    expect(await allocations(system)).toEqual({ m1: { cpu: 1000, pods: 2 }, m2: { cpu: 1000, pods: 2 } });
  });

  it('follows its template: a label change re-claims it, a deletion removes its binding', async () => {
    const system = newSystem();
    const config = BUNDLE_OBJECTS.ConfigMap!();
    await applyAll(system, [...fleet(), propagationPolicy('config', { resourceSelectors: [{ apiVersion: 'v1', kind: 'ConfigMap', labelSelector: { matchLabels: { app: 'web' } } }] }), config]);
    expect(await bindingFor(system, config)).toBeDefined();
    await applyAll(system, [{ ...config, metadata: { ...config.metadata, labels: { app: 'other' } } }]);
    expect(await bindingFor(system, config)).toBeUndefined();
    await applyAll(system, [config]);
    expect((await bindingFor(system, config))?.spec.clusters).toHaveLength(3);
    await system.objects.delete({ group: '', kind: 'ConfigMap', namespace: 'default', name: 'web-config' });
    await system.runUntilIdle();
    expect(await bindingFor(system, config)).toBeUndefined();
    expect(system.handlerErrors).toEqual([]);
  });

  it('claims no OverridePolicy, even for a policy that names its kind, as Karmada skips the policy.karmada.io group', async () => {
    const system = newSystem();
    const override = BUNDLE_OBJECTS.OverridePolicy!();
    await applyAll(system, [...fleet(), propagationPolicy('overrides', { resourceSelectors: [{ apiVersion: 'policy.karmada.io/v1alpha1', kind: 'OverridePolicy' }] }), override]);
    expect(await system.store.get({ group: apiGroupOf(override.apiVersion), kind: 'OverridePolicy', namespace: 'default', name: 'web-images' })).toBeDefined();
    expect(await bindingFor(system, override)).toBeUndefined();
    expect(system.handlerErrors).toEqual([]);
  });
});
