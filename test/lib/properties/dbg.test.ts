import { it } from 'vitest';
import { newSystem, cluster } from '../controllers/support';
import { listBindings } from '../../../lib/controllers/binding-requests';
import { outrankCheck } from '../check/support';
it('dbg', async () => {
  const system = newSystem();
  const L = 'a'.repeat(253);
  const c = ['a', L];
  const ns = 'a';
  const ws = [
    { name: L, api: 'apps/v1', kind: 'Deployment', r: 3, p: { replicaSchedulingType: 'Duplicated' } },
    { name: 'a', api: 'apps/v1', kind: 'Deployment', r: 2, p: { replicaSchedulingType: 'Duplicated' } },
    { name: L, api: 'apps/v1', kind: 'ReplicaSet', r: 4, p: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted', weightPreference: { staticWeightList: c.map((n, i) => ({ targetCluster: { clusterNames: [n] }, weight: i + 1 })) } } },
    { name: 'a', api: 'apps/v1', kind: 'ReplicaSet', r: 3, p: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted', weightPreference: { dynamicWeight: 'AvailableReplicas' } } },
  ];
  for (const name of c) await system.objects.apply(cluster(name, { cpu: '4', pods: '110' }));
  for (const [i, w] of ws.entries()) await system.objects.apply({ apiVersion: 'policy.karmada.io/v1alpha1', kind: 'PropagationPolicy', metadata: { name: `p${i}`, namespace: ns }, spec: { resourceSelectors: [{ apiVersion: w.api, kind: w.kind, name: w.name }], placement: { replicaScheduling: w.p } } });
  const t = (w: any, r: number) => ({ apiVersion: w.api, kind: w.kind, metadata: { name: w.name, namespace: ns }, spec: { replicas: r, template: { spec: { containers: [{ name: 'main', image: 'b', resources: { requests: { cpu: '500m' } } }] } } } });
  for (const w of ws) await system.objects.apply(t(w, w.r));
  await system.runUntilIdle(); await system.advance(300000); await system.runUntilIdle();
  console.log('CHECK1', JSON.stringify(await outrankCheck(system)), system.handlerErrors.length);
  for (const w of ws) await system.objects.apply(t(w, 0));
  await system.objects.delete({ group: 'apps', kind: 'Deployment', namespace: ns, name: L });
  await system.objects.apply(cluster(c[0]!, { cpu: '4', pods: '110' }, { ready: false }));
  await system.runUntilIdle(); await system.advance(300000); await system.runUntilIdle();
  console.log('CHECK2', JSON.stringify(await outrankCheck(system)), system.handlerErrors.map(String));
  console.log(JSON.stringify((await listBindings(system.context)).map((b) => [b.metadata.name.slice(0, 20), b.metadata.generation, b.spec.replicas, b.spec.clusters, b.status])));
});
