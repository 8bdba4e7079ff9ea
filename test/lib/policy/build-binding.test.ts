import { describe, expect, it } from 'vitest';
import type { PriorityClass } from '../../../lib/api/priority-class';
import type { AnyPropagationPolicy } from '../../../lib/api/propagation-policy';
import type { ResourceBinding } from '../../../lib/api/resource-binding';
import type { ResourceTemplate } from '../../../lib/api/resource-template';
import { buildBinding, type BindingInputs } from '../../../lib/policy/build-binding';
import { PREEMPTIBILITY_LABEL } from '../../../lib/policy/resolve-preemptibility';
import { cpp, pp, priorityClass, template } from './support';

const NOW = '2026-01-01T00:00:00.000Z';
const NEW_UID = '0b9a8f3e-5c4d-4e2f-9a1b-7c6d5e4f3a2b';
const web = template('web', { replicas: 3 });
const policy = pp('p', { placement: { clusterAffinity: { clusterNames: ['m1', 'm2'] } } });

function build(overrides: Partial<BindingInputs> = {}) {
  return buildBinding({ template: web, policy, priorityClasses: [], preemptibleBelowPriority: 100, labelsMayDeclareNonPreemptible: true, existing: undefined, now: NOW, newUid: () => NEW_UID, ...overrides });
}

const withClass = pp('p', { placement: policy.spec.placement, schedulePriority: { priorityClassName: 'x' } });

/** A policy as the store hands it back after a write: with a resourceVersion of its own. */
function changed(written: AnyPropagationPolicy): AnyPropagationPolicy {
  return { ...written, metadata: { ...written.metadata, resourceVersion: '8' } };
}

/** The binding as the store would hand it back after the scheduler placed it. */
function stored(binding: ResourceBinding, clusters = [{ name: 'm1', replicas: 3 }]): ResourceBinding {
  return {
    ...binding,
    metadata: { ...binding.metadata, resourceVersion: '7' },
    spec: { ...binding.spec, clusters },
    status: { schedulerObservedGeneration: binding.metadata.generation ?? 0, conditions: [{ type: 'Scheduled', status: 'True', reason: 'Success' }] },
  };
}

describe('buildBinding: identity (issue 2, "Objects")', () => {
  it('names a ResourceBinding `<template>-<lowercase kind>` in the template namespace', () => {
    const { binding } = build({ template: template('web', { kind: 'StatefulSet', namespace: 'team' }), policy: pp('p', { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'StatefulSet' }] }, 'team') });
    expect(binding.kind).toBe('ResourceBinding');
    expect(binding.apiVersion).toBe('work.karmada.io/v1alpha2');
    expect(binding.metadata.name).toBe('web-statefulset');
    expect(binding.metadata.namespace).toBe('team');
    expect(binding.spec.resource).toEqual({ apiVersion: 'apps/v1', kind: 'StatefulSet', namespace: 'team', name: 'web' });
  });

  it('makes a ClusterResourceBinding for a template without namespace', () => {
    const widget = template('w', { apiVersion: 'example.com/v1', kind: 'Widget', namespace: null, replicas: 2 });
    const { binding } = build({ template: widget, policy: cpp('c', { resourceSelectors: [{ apiVersion: 'example.com/v1', kind: 'Widget' }] }) });
    expect(binding.kind).toBe('ClusterResourceBinding');
    expect(binding.metadata.name).toBe('w-widget');
    expect(binding.metadata).not.toHaveProperty('namespace');
    expect(binding.spec.resource).toEqual({ apiVersion: 'example.com/v1', kind: 'Widget', name: 'w' });
  });

  it.each<[string, AnyPropagationPolicy, Record<string, string>]>([
    ['PropagationPolicy', pp('p', {}), { 'propagationpolicy.karmada.io/namespace': 'default', 'propagationpolicy.karmada.io/name': 'p' }],
    ['ClusterPropagationPolicy', cpp('c', {}), { 'clusterpropagationpolicy.karmada.io/name': 'c' }],
  ])('labels the binding with its %s, as Karmada does', (_, claimant, labels) => {
    expect(build({ policy: claimant }).binding.metadata.labels).toEqual(labels);
  });
});

describe('buildBinding: replicas and request (issue 2: per-replica request as Kubernetes computes it)', () => {
  it.each<[string, Partial<Parameters<typeof template>[1]>, number, Record<string, string> | undefined]>([
    ['sum of containers', { replicas: 2, containers: [{ resources: { requests: { cpu: '500m', memory: '1Gi' } } }, { resources: { requests: { cpu: '250m' } } }] }, 2, { cpu: '750m', memory: '1Gi' }],
    [
      'at least the largest init container',
      { containers: [{ resources: { requests: { cpu: '500m', memory: '1Gi' } } }], initContainers: [{ resources: { requests: { cpu: '2' } } }, { resources: { requests: { cpu: '1', memory: '512Mi' } } }] },
      1,
      { cpu: '2', memory: '1Gi' },
    ],
    ['limits stand in for missing requests', { containers: [{ resources: { limits: { cpu: '1', 'nvidia.com/gpu': '1' } } }] }, 1, { cpu: '1', 'nvidia.com/gpu': '1' }],
    ['exact parsing of decimal and exponent forms', { containers: [{ resources: { requests: { cpu: '1.5', memory: '1e3' } } }] }, 1, { cpu: '1500m', memory: '1000' }],
    ['no requests at all: no replicaRequirements', { containers: [{ name: 'c' }] }, 1, undefined],
    ['zero requests are left out', { containers: [{ resources: { requests: { cpu: '0', memory: '1Mi' } } }] }, 1, { memory: '1Mi' }],
  ])('%s', (_, options, replicas, request) => {
    const { binding } = build({ template: template('web', options) });
    expect(binding.spec.replicas).toBe(replicas);
    expect(binding.spec.replicaRequirements?.resourceRequest).toEqual(request);
    expect(binding.spec.replicaRequirements?.resourceRequest ?? {}).not.toHaveProperty('pods');
  });

  it('a Job runs parallelism replicas', () => {
    const job = template('batch', { apiVersion: 'batch/v1', kind: 'Job' });
    const { binding } = build({ template: { ...job, spec: { ...job.spec, parallelism: 4 } } as ResourceTemplate, policy: pp('p', { resourceSelectors: [{ apiVersion: 'batch/v1', kind: 'Job' }] }) });
    expect(binding.metadata.name).toBe('batch-job');
    expect(binding.spec.replicas).toBe(4);
  });

  it('copies the policy placement', () => {
    expect(build().binding.spec.placement).toEqual({ clusterAffinity: { clusterNames: ['m1', 'm2'] } });
    expect(build({ policy: pp('bare', {}) }).binding.spec).not.toHaveProperty('placement');
  });
});

describe('buildBinding: priority (binding priority and preemption (000)) and preemptibility (preemptibility separate from priority (001))', () => {
  const classes: PriorityClass[] = [priorityClass('high', 1000), priorityClass('low', 50, { preemptionPolicy: 'Never' })];

  it.each<[string, AnyPropagationPolicy, ResourceTemplate, number, Record<string, unknown>]>([
    ['a named class', pp('p', { schedulePriority: { priorityClassName: 'high' } }), web, 100, { schedulePriority: { priority: 1000, preemptionPolicy: 'PreemptLowerPriority' }, preemptibility: 'non-preemptible' }],
    ['the pod template class', pp('p', { schedulePriority: { priorityClassSource: 'PodPriorityClass' } }), template('web', { priorityClassName: 'low' }), 100, { schedulePriority: { priority: 50, preemptionPolicy: 'Never' }, preemptibility: 'preemptible' }],
    ['no class and no default: 0 and Never', pp('p', {}), web, 100, { schedulePriority: { priority: 0, preemptionPolicy: 'Never' }, preemptibility: 'preemptible' }],
    ['a configured threshold', pp('p', { schedulePriority: { priorityClassName: 'high' } }), web, 1001, { schedulePriority: { priority: 1000, preemptionPolicy: 'PreemptLowerPriority' }, preemptibility: 'preemptible' }],
    ['the policy preemptibility', pp('p', { preemptibility: 'non-preemptible' }), web, 100, { schedulePriority: { priority: 0, preemptionPolicy: 'Never' }, preemptibility: 'non-preemptible' }],
    ['the template label', pp('p', {}), template('web', { labels: { [PREEMPTIBILITY_LABEL]: 'non-preemptible' } }), 100, { preemptibility: 'non-preemptible' }],
  ])('%s', (_, claimant, object, threshold, expected) => {
    const { binding, warnings } = build({ policy: claimant, template: object, priorityClasses: classes, preemptibleBelowPriority: threshold });
    expect(binding.spec).toMatchObject(expected);
    expect(warnings).toEqual([]);
  });

  it('warns on the template when the named class is missing', () => {
    const { binding, warnings } = build({ policy: pp('p', { schedulePriority: { priorityClassName: 'gone' } }), priorityClasses: [priorityClass('d', 7, { globalDefault: true })] });
    expect(binding.spec.schedulePriority).toEqual({ priority: 7, preemptionPolicy: 'PreemptLowerPriority' });
    expect(warnings).toEqual([
      {
        type: 'Warning',
        reason: 'PriorityClassNotFound',
        object: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' },
        message: expect.stringContaining('PriorityClass "gone" does not exist'),
      },
    ]);
  });

  it('warns on the template for each invalid preemptibility label', () => {
    const object = template('web', { labels: { [PREEMPTIBILITY_LABEL]: 'maybe' }, podLabels: { [PREEMPTIBILITY_LABEL]: 'nope' } });
    const { binding, warnings } = build({ template: object });
    expect(binding.spec.preemptibility).toBe('preemptible');
    expect(warnings.map((w) => [w.type, w.reason, w.message])).toEqual([
      ['Warning', 'InvalidPreemptibility', expect.stringContaining('template label kai.scheduler/preemptibility="maybe"')],
      ['Warning', 'InvalidPreemptibility', expect.stringContaining('pod template label kai.scheduler/preemptibility="nope"')],
    ]);
  });
});

describe('buildBinding: generation and what carries over', () => {
  it('starts a new binding at generation 1, changed', () => {
    const built = build();
    expect(built.changed).toBe(true);
    expect(built.binding.metadata.generation).toBe(1);
    expect(built.binding).not.toHaveProperty('status');
  });

  it('keeps generation, placement, status and resourceVersion when nothing changed', () => {
    const existing = stored(build().binding);
    const built = build({ existing });
    expect(built.changed).toBe(false);
    expect(built.binding.metadata.generation).toBe(1);
    expect(built.binding.metadata.resourceVersion).toBe('7');
    expect(built.binding.spec.clusters).toEqual([{ name: 'm1', replicas: 3 }]);
    expect(built.binding.status).toEqual(existing.status);
  });

  it.each<[string, Partial<BindingInputs>]>([
    ['replicas', { template: template('web', { replicas: 4 }) }],
    ['the request', { template: template('web', { replicas: 3, containers: [{ resources: { requests: { cpu: '1' } } }] }) }],
    ['the placement', { policy: pp('p', { placement: { clusterAffinity: { clusterNames: ['m3'] } } }) }],
    ['the priority', { policy: changed(pp('p', { placement: policy.spec.placement, schedulePriority: { priorityClassName: 'x' } })), priorityClasses: [priorityClass('x', 5)] }],
  ])('bumps the generation when %s changes', (_, overrides) => {
    const existing = stored(build().binding);
    const built = build({ existing, ...overrides });
    expect(built.changed).toBe(true);
    expect(built.binding.metadata.generation).toBe(2);
    expect(built.binding.spec.clusters).toEqual([{ name: 'm1', replicas: 3 }]);
  });

  it.each<[string, Partial<BindingInputs>, number]>([
    ['the class deleted', { priorityClasses: [] }, 5],
    ['the class created again with another value', { priorityClasses: [priorityClass('x', 9)] }, 5],
    ['the template changed', { template: { ...template('web', { replicas: 3 }), metadata: { ...template('web').metadata, resourceVersion: '2' } }, priorityClasses: [priorityClass('x', 9)] }, 9],
    ['the policy changed', { policy: changed(withClass), priorityClasses: [priorityClass('x', 9)] }, 9],
  ])('binding priority and preemption (000): the priority is resolved again only when its own template or policy changes (%s)', (_, overrides, priority) => {
    const existing = stored(build({ policy: withClass, priorityClasses: [priorityClass('x', 5)] }).binding);
    expect(existing.spec.schedulePriority?.priority).toBe(5);
    const built = build({ existing, policy: withClass, ...overrides });
    expect(built.binding.spec.schedulePriority?.priority).toBe(priority);
    expect(built.warnings).toEqual([]);
  });

  it('does not bump the generation when only the order of map keys differs', () => {
    const requestOrder = (first: 'cpu' | 'memory') => {
      const requests = first === 'cpu' ? { cpu: '1', memory: '1Gi' } : { memory: '1Gi', cpu: '1' };
      return template('web', { replicas: 3, containers: [{ resources: { requests } }] });
    };
    const labelOrder = (first: 'a' | 'b') =>
      pp('p', { placement: { clusterAffinity: { labelSelector: { matchLabels: first === 'a' ? { a: '1', b: '2' } : { b: '2', a: '1' } } } } });
    const existing = stored(build({ template: requestOrder('cpu'), policy: labelOrder('a') }).binding);
    const built = build({ existing, template: requestOrder('memory'), policy: labelOrder('b') });
    expect(built.changed).toBe(false);
    expect(built.binding.metadata.generation).toBe(1);
  });
});

describe('buildBinding: scheduling suspension (scheduling suspension (003))', () => {
  const suspending = pp('p', { suspension: { scheduling: true } });
  const resuming = pp('p', { suspension: { scheduling: false } });
  const silent = pp('p', {});
  const unplaced = (suspended: boolean): ResourceBinding => {
    const binding = build({ policy: silent }).binding;
    return { ...binding, spec: { ...binding.spec, ...(suspended ? { suspension: { scheduling: true } } : {}) } };
  };

  it.each<[string, AnyPropagationPolicy, ResourceBinding | undefined, boolean]>([
    ['a new binding of a suspending policy is suspended', suspending, undefined, true],
    ['an unplaced binding can be suspended', suspending, unplaced(false), true],
    ['a placed binding cannot be switched to suspended', suspending, stored(unplaced(false)), false],
    ['a placed binding that is already suspended stays suspended', suspending, stored(unplaced(true)), true],
    ['false resumes', resuming, unplaced(true), false],
    ['a silent policy leaves a suspension set on the binding', silent, unplaced(true), true],
    ['a silent policy does not suspend', silent, unplaced(false), false],
  ])('%s', (_, claimant, existing, suspended) => {
    const { binding } = build({ policy: claimant, existing });
    expect(binding.spec.suspension?.scheduling === true).toBe(suspended);
  });

  it('keeps an explicit scheduling: false as written, so nothing changes on the next rebuild', () => {
    const resumed = stored({ ...unplaced(false), spec: { ...unplaced(false).spec, suspension: { scheduling: false } } });
    const { binding, changed } = build({ policy: silent, existing: resumed });
    expect(binding.spec.suspension).toEqual({ scheduling: false });
    expect(changed).toBe(false);
  });

  it('warns when a policy asks to suspend a binding that is already scheduled', () => {
    const { warnings } = build({ policy: suspending, existing: stored(unplaced(false)) });
    expect(warnings).toEqual([expect.objectContaining({ type: 'Warning', reason: 'SchedulingSuspensionIgnored' })]);
    expect(build({ policy: suspending, existing: unplaced(false) }).warnings).toEqual([]);
  });
});

describe('buildBinding: creation time', () => {
  it('stamps a new binding and keeps the stamp of an existing one', () => {
    const created = build().binding;
    expect(created.metadata.creationTimestamp).toBe(NOW);
    const rebuilt = build({ existing: { ...created, metadata: { ...created.metadata, creationTimestamp: '2025-05-05T00:00:00.000Z' } }, now: '2027-01-01T00:00:00.000Z' });
    expect(rebuilt.binding.metadata.creationTimestamp).toBe('2025-05-05T00:00:00.000Z');
  });
});

describe('buildBinding: uids', () => {
  const TEMPLATE_UID = '4858ca61-3ff8-4095-8267-f3d059d8074c';
  const withUid = { ...web, metadata: { ...web.metadata, uid: TEMPLATE_UID } };

  it("gives a new binding its own uid and refers to the template by its uid too, as Karmada's detector does", () => {
    const { binding } = build({ template: withUid });
    expect(binding.metadata.uid).toBe(NEW_UID);
    expect(binding.spec.resource).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web', uid: TEMPLATE_UID });
  });

  it('keeps the uid of a binding already stored, and asks for none', () => {
    const existing = stored(build({ template: withUid }).binding);
    const built = build({ template: withUid, existing: { ...existing, metadata: { ...existing.metadata, uid: 'stored-uid' } }, newUid: () => expect.unreachable() });
    expect(built.binding.metadata.uid).toBe('stored-uid');
    expect(built.changed).toBe(false);
  });

  it('a template created again under the same name is another template: the spec changes', () => {
    const existing = stored(build({ template: withUid }).binding);
    const built = build({ template: { ...web, metadata: { ...web.metadata, uid: 'd43fdeeb-d750-4e2b-bee3-64eb94534f4c' } }, existing });
    expect(built.changed).toBe(true);
    expect(built.binding.spec.resource.uid).toBe('d43fdeeb-d750-4e2b-bee3-64eb94534f4c');
  });
});

describe("buildBinding: spec.rescheduleTriggeredAt, a user's request for a fresh division", () => {
  it('is kept as the binding is built again, and changes nothing', () => {
    const placed = stored(build().binding);
    const existing = { ...placed, spec: { ...placed.spec, rescheduleTriggeredAt: NOW } };
    const built = build({ existing });
    expect(built.binding.spec.rescheduleTriggeredAt).toBe(NOW);
    expect(built.changed).toBe(false);
    expect(build({ existing, template: template('web', { replicas: 4 }) }).binding.spec.rescheduleTriggeredAt).toBe(NOW);
  });
});

describe('buildBinding: declaring work non-preemptible is a privilege (preemptibility separate from priority (001), tenancy)', () => {
  const labelled = template('web', { labels: { [PREEMPTIBILITY_LABEL]: 'non-preemptible' } });

  it('ignores the label in a namespace not granted it, with a Warning naming the rule', () => {
    const built = build({ template: labelled, labelsMayDeclareNonPreemptible: false });
    expect(built.binding.spec.preemptibility).toBe('preemptible');
    expect(built.warnings).toEqual([
      expect.objectContaining({
        type: 'Warning',
        reason: 'NonPreemptibleNotGranted',
        message: 'template label kai.scheduler/preemptibility="non-preemptible" ignored: namespace "default" is not granted non-preemptible work (tenancy nonPreemptibleNamespaces)',
      }),
    ]);
  });

  it('follows the label where the namespace is granted it', () => {
    const built = build({ template: labelled, labelsMayDeclareNonPreemptible: true });
    expect(built.binding.spec.preemptibility).toBe('non-preemptible');
    expect(built.warnings).toEqual([]);
  });
});

describe("buildBinding: the policy fields Karmada's detector carries to the binding (pkg/detector/detector.go, BuildResourceBinding)", () => {
  const failover = {
    application: { decisionConditions: { tolerationSeconds: 120 }, purgeMode: 'Gracefully', gracePeriodSeconds: 600, statePreservation: { rules: [{ aliasLabelName: 'example.com/replicas', jsonPath: '{.replicas}' }] } },
    cluster: { purgeMode: 'Directly' },
  };
  const carrying = pp('p', { propagateDeps: true, failover, conflictResolution: 'Overwrite', preserveResourcesOnDeletion: true, placement: policy.spec.placement });

  it('copies propagateDeps, failover, conflictResolution and preserveResourcesOnDeletion as written', () => {
    const { spec } = build({ policy: carrying }).binding;
    expect(spec).toMatchObject({ propagateDeps: true, failover, conflictResolution: 'Overwrite', preserveResourcesOnDeletion: true });
  });

  it('leaves out what the policy leaves out (no defaults written), and keeps false as written', () => {
    const { spec } = build().binding;
    for (const field of ['propagateDeps', 'failover', 'conflictResolution', 'preserveResourcesOnDeletion', 'suspension']) expect(spec).not.toHaveProperty(field);
    expect(build({ policy: pp('p', { preserveResourcesOnDeletion: false, propagateDeps: false }) }).binding.spec).toMatchObject({ preserveResourcesOnDeletion: false, propagateDeps: false });
  });

  it('copies the placement whole: overflow groups and workload affinity too', () => {
    const placement = {
      clusterAffinities: [{ affinityName: 'primary', clusterNames: ['m1'], overflowAffinities: [{ affinityName: 'burst', clusterNames: ['m2'] }] }],
      replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' },
      workloadAffinity: { affinity: { groupByLabelKey: 'app.group' } },
    };
    expect(build({ policy: pp('p', { placement }) }).binding.spec.placement).toEqual(placement);
  });

  it('carries them to a ClusterResourceBinding too (BuildClusterResourceBinding)', () => {
    const widget = template('w', { apiVersion: 'example.com/v1', kind: 'Widget', namespace: null, replicas: 2 });
    const claimant = cpp('c', { resourceSelectors: [{ apiVersion: 'example.com/v1', kind: 'Widget' }], conflictResolution: 'Abort', failover: { cluster: { purgeMode: 'Gracefully' } } });
    const { binding } = build({ template: widget, policy: claimant });
    expect(binding.kind).toBe('ClusterResourceBinding');
    expect(binding.spec).toMatchObject({ conflictResolution: 'Abort', failover: { cluster: { purgeMode: 'Gracefully' } } });
  });

  it.each<[string, Record<string, unknown>]>([
    ['propagateDeps', { propagateDeps: true }],
    ['failover', { failover: { cluster: { purgeMode: 'Directly' } } }],
    ['conflictResolution', { conflictResolution: 'Overwrite' }],
    ['preserveResourcesOnDeletion', { preserveResourcesOnDeletion: true }],
    ['suspension.dispatching', { suspension: { dispatching: true } }],
    ['placement.workloadAffinity', { placement: { ...policy.spec.placement, workloadAffinity: { antiAffinity: { groupByLabelKey: 'app.group' } } } }],
  ])('a change of %s changes the binding (a new generation), keeping its placement', (_, fields) => {
    const existing = stored(build().binding);
    const built = build({ existing, policy: changed(pp('p', { placement: policy.spec.placement, ...fields })) });
    expect(built.changed).toBe(true);
    expect(built.binding.metadata.generation).toBe(2);
    expect(built.binding.spec.clusters).toEqual(existing.spec.clusters);
  });
});

describe('buildBinding: dispatching suspension, merged as Karmada merges it (pkg/util/binding_test.go, TestMergePolicySuspension)', () => {
  const unplaced = (suspension: Record<string, unknown> | undefined): ResourceBinding => {
    const binding = build().binding;
    return { ...binding, spec: { ...binding.spec, ...(suspension ? { suspension } : {}) } };
  };

  it.each<[string, Record<string, unknown> | undefined, Record<string, unknown> | undefined, Record<string, unknown> | undefined]>([
    ['both nil returns nil', undefined, undefined, undefined],
    ['binding suspension only preserves scheduling when policy suspension nil', { scheduling: true }, undefined, { scheduling: true }],
    ['cleanup of binding suspension preserves scheduling field', { dispatching: true, scheduling: true }, undefined, { scheduling: true }],
    ['if the scheduling not set and policy suspension nil, will return nil', { dispatching: true }, undefined, undefined],
    ['policy suspension set and no existing binding creates new suspension from policy', undefined, { dispatching: true }, { dispatching: true }],
    ['should merge policy suspension and binding suspension', { scheduling: true }, { dispatching: true }, { dispatching: true, scheduling: true }],
  ])("'%s'", (_, onBinding, onPolicy, expected) => {
    const claimant = pp('p', { placement: policy.spec.placement, ...(onPolicy ? { suspension: onPolicy } : {}) });
    const { binding } = build({ policy: claimant, existing: onBinding === undefined ? undefined : unplaced(onBinding) });
    expect(binding.spec.suspension).toEqual(expected);
  });

  it('a new binding takes the policy’s dispatchingOnClusters as written', () => {
    const suspension = { dispatchingOnClusters: { clusterNames: ['m2'] } };
    expect(build({ policy: pp('p', { suspension }) }).binding.spec.suspension).toEqual(suspension);
  });
});

describe("buildBinding: the scheduler, as Karmada's detector carries the policy's schedulerName (detector.go, BuildResourceBinding)", () => {
  it("carries the policy's scheduler name", () => {
    const { binding } = build({ policy: pp('p', { placement: policy.spec.placement, schedulerName: 'my-custom-scheduler' }) });
    expect(binding.spec.schedulerName).toBe('my-custom-scheduler');
  });

  it("names the default scheduler when the policy names none (the policy CRD's default)", () => {
    expect(build().binding.spec.schedulerName).toBe('default-scheduler');
  });

  it('moves to the scheduler of the policy that claims the template now, keeping the placement: a change of spec', () => {
    const existing = stored(build().binding);
    const built = build({ existing, policy: pp('p', { placement: policy.spec.placement, schedulerName: 'my-custom-scheduler' }) });
    expect(built.changed).toBe(true);
    expect(built.binding.spec.schedulerName).toBe('my-custom-scheduler');
    expect(built.binding.metadata.generation).toBe(2);
    expect(built.binding.spec.clusters).toEqual([{ name: 'm1', replicas: 3 }]);
  });

  it("leaves a binding stored before bindings carried the name as it is while it stays the default scheduler's: no spec change, no new generation", () => {
    const written = stored(build().binding);
    const { schedulerName: _, ...unnamed } = written.spec;
    const built = build({ existing: { ...written, spec: unnamed } });
    expect(built.changed).toBe(false);
    expect(built.binding.spec).not.toHaveProperty('schedulerName');
    expect(built.binding.metadata.generation).toBe(1);
    const toAnother = build({ existing: { ...written, spec: unnamed }, policy: pp('p', { placement: policy.spec.placement, schedulerName: 'batch' }) });
    expect(toAnother.binding.spec.schedulerName).toBe('batch');
    expect(toAnother.changed).toBe(true);
  });
});

describe("buildBinding: the template is the binding's controller owner, as Karmada's detector makes it (detector.go, BuildResourceBinding: metav1.NewControllerRef)", () => {
  const TEMPLATE_UID = '4858ca61-3ff8-4095-8267-f3d059d8074c';
  const withUid = { ...web, metadata: { ...web.metadata, uid: TEMPLATE_UID } };

  it('names the template by apiVersion, kind, name and uid, as controller blocking its deletion', () => {
    // The facts of Karmada's mcs_controller_test.go, TestBuildResourceBinding, "OwnerReferences Check", for the detector's binding.
    expect(build({ template: withUid }).binding.metadata.ownerReferences).toEqual([
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: TEMPLATE_UID, controller: true, blockOwnerDeletion: true },
    ]);
  });

  it('a ClusterResourceBinding is owned by its cluster-scoped template the same way', () => {
    const widget = { ...template('w', { apiVersion: 'example.com/v1', kind: 'Widget', namespace: null, replicas: 2 }), metadata: { name: 'w', uid: 'w-uid' } };
    const { binding } = build({ template: widget, policy: cpp('c', { resourceSelectors: [{ apiVersion: 'example.com/v1', kind: 'Widget' }] }) });
    expect(binding.metadata.ownerReferences).toEqual([{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: 'w-uid', controller: true, blockOwnerDeletion: true }]);
  });

  it('adding the reference to a binding stored without one is a change of metadata: the generation stays (kube-apiserver)', () => {
    const written = stored(build({ template: withUid }).binding);
    const { ownerReferences: _, ...bare } = written.metadata;
    const built = build({ template: withUid, existing: { ...written, metadata: bare } });
    expect(built.changed).toBe(false);
    expect(built.binding.metadata.generation).toBe(1);
    expect(built.binding.metadata.ownerReferences).toHaveLength(1);
  });
});
