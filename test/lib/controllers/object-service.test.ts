import { describe, expect, it } from 'vitest';
import { InvalidObjectError } from '../../../lib/api/invalid-object-error';
import { NotFoundError } from '../../../lib/api/not-found-error';
import type { MemorySystem } from '../../../lib/runtime/memory-system';
import {
  ALL_DEPLOYMENTS,
  applyAll,
  cluster,
  clusterPropagationPolicy,
  deployment,
  newSystem,
  priorityClass,
  propagationPolicy,
  queueDepths,
  refs,
  rejectionOf,
  SPEC,
  storeContents,
  type Manifest,
} from './support';

/** A system with something of every kind: clusters, a class, a policy, and a placed binding. */
async function populated(): Promise<MemorySystem> {
  const system = newSystem();
  await applyAll(system, [
    cluster('m1', { cpu: '4' }),
    priorityClass('gold', 1_000),
    propagationPolicy('p', { resourceSelectors: ALL_DEPLOYMENTS, schedulePriority: { priorityClassName: 'gold' } }),
    deployment('web'),
  ]);
  return system;
}

async function everything(system: MemorySystem) {
  return {
    store: await storeContents(system),
    queues: queueDepths(system),
    events: await system.events.list(),
    errors: [...system.handlerErrors],
  };
}

interface RejectionCase {
  readonly name: string;
  readonly spec: string;
  readonly act: (system: MemorySystem) => Promise<unknown>;
  /** The field path the error names. */
  readonly field: string;
}

function policyWith(spec: Manifest): Manifest {
  return propagationPolicy('bad', { resourceSelectors: ALL_DEPLOYMENTS, ...spec });
}

const apply = (manifest: Manifest) => (system: MemorySystem) => system.objects.apply(manifest);

const REJECTIONS: readonly RejectionCase[] = [
  {
    name: 'preemption: Always with a selector that names no resource',
    spec: SPEC.policy,
    act: apply(policyWith({ preemption: 'Always' })),
    field: 'spec.resourceSelectors[0].name',
  },
  {
    name: 'a ClusterPropagationPolicy with preemption: Always that does not say the namespace of a Deployment',
    spec: SPEC.policy,
    act: apply(clusterPropagationPolicy('bad', { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }], preemption: 'Always' })),
    field: 'spec.resourceSelectors[0].namespace',
  },
  {
    name: 'a preemption value outside Always and Never',
    spec: SPEC.policy,
    act: apply(policyWith({ preemption: 'Sometimes' })),
    field: 'spec.preemption',
  },
  {
    name: 'clusterAffinity together with clusterAffinities',
    spec: SPEC.affinity,
    act: apply(
      policyWith({
        placement: { clusterAffinity: { clusterNames: ['m1'] }, clusterAffinities: [{ affinityName: 'a', clusterNames: ['m1'] }] },
      }),
    ),
    field: 'spec.placement.clusterAffinities',
  },
  {
    name: 'two affinity terms with the same name',
    spec: SPEC.affinity,
    act: apply(
      policyWith({
        placement: {
          clusterAffinities: [
            { affinityName: 'a', clusterNames: ['m1'] },
            { affinityName: 'a', clusterNames: ['m2'] },
          ],
        },
      }),
    ),
    field: 'spec.placement.clusterAffinities[1].affinityName',
  },
  {
    name: 'an affinity name that is not a valid label key',
    spec: SPEC.affinity,
    act: apply(policyWith({ placement: { clusterAffinities: [{ affinityName: 'not a key!', clusterNames: ['m1'] }] } })),
    field: 'spec.placement.clusterAffinities[0].affinityName',
  },
  {
    name: 'priorityClassSource FederatedPriorityClass',
    spec: SPEC.priority,
    act: apply(policyWith({ schedulePriority: { priorityClassSource: 'FederatedPriorityClass', priorityClassName: 'gold' } })),
    field: 'spec.schedulePriority.priorityClassSource',
  },
  {
    name: 'preemptibility semi-preemptible (a later feature)',
    spec: SPEC.preemptibility,
    act: apply(policyWith({ preemptibility: 'semi-preemptible' })),
    field: 'spec.preemptibility',
  },
  {
    name: 'a PriorityClass value outside int32',
    spec: SPEC.priority,
    act: apply(priorityClass('huge', 2 ** 31)),
    field: 'value',
  },
  {
    name: 'a PriorityClass whose value changes',
    spec: SPEC.priority,
    act: apply(priorityClass('gold', 2_000)),
    field: 'value',
  },
  {
    name: 'a template with a request that is no quantity',
    spec: SPEC.priority,
    act: apply(deployment('bad', { requests: { cpu: 'lots' } })),
    field: 'spec.template.spec.containers[0].resources.requests.cpu',
  },
  {
    name: 'an update of a placed template with negative replicas',
    spec: SPEC.priority,
    act: apply(deployment('web', { replicas: -1 })),
    field: 'spec.replicas',
  },
  {
    name: 'a ResourceBinding applied by a user',
    spec: SPEC.priority,
    act: apply({
      apiVersion: 'work.karmada.io/v1alpha2',
      kind: 'ResourceBinding',
      metadata: { name: 'forged', namespace: 'default' },
      spec: { resource: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' } },
    }),
    field: 'kind',
  },
  {
    name: "a ClusterAllocation applied by a user (outrank's own bookkeeping)",
    spec: SPEC.priority,
    act: apply({ apiVersion: 'scheduling.outrank.io/v1alpha1', kind: 'ClusterAllocation', metadata: { name: 'm1' }, spec: { placed: {} } }),
    field: 'apiVersion',
  },
  {
    name: 'a ResourceBinding whose spec.clusters is patched',
    spec: SPEC.priority,
    act: (system) => system.objects.patch(refs.binding('web'), { spec: { clusters: [{ name: 'm2', replicas: 1 }] } }),
    field: 'spec.clusters',
  },
  {
    name: 'a scheduled ResourceBinding patched to suspended',
    spec: SPEC.suspension,
    act: (system) => system.objects.patch(refs.binding('web'), { spec: { suspension: { scheduling: true } } }),
    field: 'spec.suspension.scheduling',
  },
  {
    name: 'a ResourceBinding deleted by a user',
    spec: SPEC.priority,
    act: (system) => system.objects.delete(refs.binding('web')),
    field: 'kind',
  },
  {
    name: 'a patch that renames the object',
    spec: SPEC.policy,
    act: (system) => system.objects.patch(refs.policy('p'), { metadata: { name: 'q' } }),
    field: 'metadata.name',
  },
  {
    name: 'a patch that makes a policy preempt without naming its resources',
    spec: SPEC.policy,
    act: (system) => system.objects.patch(refs.policy('p'), { spec: { preemption: 'Always' } }),
    field: 'spec.resourceSelectors[0].name',
  },
  {
    name: 'a patch that changes a PriorityClass value',
    spec: SPEC.priority,
    act: (system) => system.objects.patch(refs.priorityClass('gold'), { value: 1 }),
    field: 'value',
  },
];

describe('rejected requests change nothing (issue 2: "A rejected manifest gets an error naming the field path and the rule, and changes nothing")', () => {
  it.each(REJECTIONS)('$spec: $name', async ({ act, field }) => {
    const system = await populated();
    const before = await everything(system);
    const error = await rejectionOf(() => act(system));
    expect(error).toBeInstanceOf(InvalidObjectError);
    expect((error as InvalidObjectError).causes.map((c) => c.field)).toContain(field);
    expect(error.message).toContain(field);
    await system.runUntilIdle();
    expect(await everything(system)).toEqual(before);
  });

  it.each([
    { name: 'a patch of an object that does not exist', act: (system: MemorySystem) => system.objects.patch(refs.cluster('nowhere'), { metadata: { labels: { a: 'b' } } }) },
    { name: 'a delete of an object that does not exist', act: (system: MemorySystem) => system.objects.delete(refs.deployment('nowhere')) },
  ])(`${SPEC.priority}: $name is NotFound and changes nothing`, async ({ act }) => {
    const system = await populated();
    const before = await everything(system);
    expect(await rejectionOf(() => act(system))).toBeInstanceOf(NotFoundError);
    await system.runUntilIdle();
    expect(await everything(system)).toEqual(before);
  });

  it(`${SPEC.policy}: a rejected policy leaves the claim and the placement alone, and the run goes on`, async () => {
    const system = await populated();
    await rejectionOf(() => system.objects.apply(propagationPolicy('p', { resourceSelectors: ALL_DEPLOYMENTS, preemption: 'Always' })));
    await applyAll(system, [deployment('next')]);
    const next = await system.store.get(refs.binding('next'));
    expect(next).toMatchObject({ spec: { clusters: [{ name: 'm1', replicas: 1 }] } });
  });
});
