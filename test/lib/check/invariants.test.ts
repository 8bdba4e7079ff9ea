import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../../lib/api/cluster';
import {
  PREEMPTOR_PRIORITY_ANNOTATION,
  VICTIM_PREEMPTIBILITY_ANNOTATION,
  VICTIM_PRIORITY_ANNOTATION,
  type KubeEvent,
} from '../../../lib/api/event';
import type { ResourceBinding } from '../../../lib/api/resource-binding';
import { checkInvariants, type SystemState } from '../../../lib/check/invariants';
import type { ClusterAllocation } from '../../../lib/controllers/allocations';
import { listBindings } from '../../../lib/controllers/binding-requests';
import { MemorySystem } from '../../../lib/runtime/memory-system';
import { loadScenario } from '../../../lib/simulate/load-scenario';

const cluster = (name: string, cpu: string): Cluster => ({
  apiVersion: 'cluster.karmada.io/v1alpha1',
  kind: 'Cluster',
  metadata: { name },
  status: { resourceSummary: { allocatable: { cpu, pods: '110' } } },
});

const binding = (name: string, cpu: string, clusters: Array<{ name: string; replicas: number }>, scheduled?: 'True' | 'False'): ResourceBinding => ({
  apiVersion: 'work.karmada.io/v1alpha2',
  kind: 'ResourceBinding',
  metadata: { name, namespace: 'default', generation: 1 },
  spec: {
    resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name },
    replicas: 1,
    replicaRequirements: { resourceRequest: { cpu } },
    clusters,
  },
  ...(scheduled ? { status: { conditions: [{ type: 'Scheduled', status: scheduled, reason: scheduled === 'True' ? 'Success' : 'Unschedulable' }] } } : {}),
});

const allocation = (name: string, placed: Record<string, number>): ClusterAllocation => ({
  apiVersion: 'scheduling.outrank.io/v1alpha1',
  kind: 'ClusterAllocation',
  metadata: { name },
  spec: { placed },
});

const preempted = (victim: number, preemptor: number, preemptibility: string, name = 'b'): KubeEvent => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: {
    name: 'e1',
    namespace: 'default',
    annotations: {
      [PREEMPTOR_PRIORITY_ANNOTATION]: String(preemptor),
      [VICTIM_PRIORITY_ANNOTATION]: String(victim),
      [VICTIM_PREEMPTIBILITY_ANNOTATION]: preemptibility,
    },
  },
  involvedObject: { kind: 'ResourceBinding', namespace: 'default', name },
  related: { kind: 'ResourceBinding', namespace: 'default', name: 'high' },
  type: 'Warning',
  reason: 'Preempted',
  message: 'preempted',
});

const healthy: SystemState = {
  clusters: [cluster('m1', '4')],
  bindings: [binding('a', '2', [{ name: 'm1', replicas: 1 }], 'True'), binding('b', '8', [], 'False')],
  allocations: [allocation('m1', { cpu: 2000, pods: 1 })],
  events: [preempted(1, 10, 'preemptible')],
};

describe('checkInvariants', () => {
  it('passes a consistent state and summarises it', () => {
    const report = checkInvariants(healthy);
    expect(report.violations).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.summary).toEqual({ clusters: 1, bindings: 2, placed: 1, pending: 1, suspended: 0, preemptions: 1 });
  });

  it('counts the preemptions of bindings that exist now, and still checks those of deleted ones', () => {
    const withHistory = { ...healthy, events: [preempted(1, 10, 'preemptible'), preempted(1, 10, 'preemptible', 'deleted')] };
    expect(checkInvariants(withHistory).summary.preemptions).toBe(1);
    const upward = { ...healthy, events: [preempted(10, 1, 'preemptible', 'deleted')] };
    expect(checkInvariants(upward).violations.map((v) => v.rule)).toEqual(['victim-of-lower-priority-and-preemptible']);
  });

  it.each<[string, Partial<SystemState>, string]>([
    [
      'a cluster over capacity',
      { bindings: [binding('a', '6', [{ name: 'm1', replicas: 1 }], 'True')], allocations: [allocation('m1', { cpu: 6000, pods: 1 })] },
      'cluster-within-capacity',
    ],
    ['a binding never attempted', { bindings: [...healthy.bindings, binding('c', '1', [])] }, 'binding-placed-or-pending-with-reason'],
    ['a placed binding without a Scheduled condition', { bindings: [binding('a', '2', [{ name: 'm1', replicas: 1 }])] }, 'binding-placed-or-pending-with-reason'],
    ['an allocation that does not add up', { allocations: [allocation('m1', { cpu: 1000, pods: 1 })] }, 'allocation-equals-placed-bindings'],
    ['an allocation left on a cluster nothing is placed on', { allocations: [...healthy.allocations, allocation('m2', { cpu: 1 })] }, 'allocation-equals-placed-bindings'],
    [
      'a binding placed on a cluster that does not exist',
      { bindings: [...healthy.bindings, binding('c', '1', [{ name: 'gone', replicas: 1 }], 'False')], allocations: [...healthy.allocations, allocation('gone', { cpu: 1000, pods: 1 })] },
      'placed-on-existing-cluster',
    ],
    [
      'a binding placed on a cluster before it was deleted and created again',
      {
        clusters: [{ ...cluster('m1', '4'), metadata: { name: 'm1', creationTimestamp: '2026-01-01T00:00:10.000Z' } }],
        bindings: [{ ...binding('a', '2', [{ name: 'm1', replicas: 1 }], 'True'), status: { lastScheduledTime: '2026-01-01T00:00:09.999Z', conditions: [{ type: 'Scheduled', status: 'True', reason: 'Success' }] } }, binding('b', '8', [], 'False')],
      },
      'placed-on-existing-cluster',
    ],
    ['an allocation for a cluster that does not exist', { allocations: [...healthy.allocations, allocation('gone', { cpu: 1 })] }, 'placed-on-existing-cluster'],
    ['a victim of equal priority (binding priority and preemption (000))', { events: [preempted(10, 10, 'preemptible')] }, 'victim-of-lower-priority-and-preemptible'],
    ['a non-preemptible victim (preemptibility separate from priority (001))', { events: [preempted(1, 10, 'non-preemptible')] }, 'victim-of-lower-priority-and-preemptible'],
  ])('finds %s', (_, change, rule) => {
    const report = checkInvariants({ ...healthy, ...change });
    expect(report.ok).toBe(false);
    expect(report.violations.map((v) => v.rule)).toContain(rule);
  });

  it.each(['000-binding-preemption.yaml', '001-preemptibility.yaml', '002-policy-preemption.yaml', '003-scheduling-suspension.yaml', '004-cluster-affinity-groups.yaml'])(
    'holds after the example %s',
    async (file) => {
      const scenario = loadScenario(await readFile(new URL(`../../../examples/${file}`, import.meta.url), 'utf8'));
      const system = new MemorySystem();
      for (const step of scenario.steps) {
        if ('apply' in step) for (const raw of step.apply) await system.objects.apply(raw).catch(() => undefined);
        await system.runUntilIdle();
      }
      const report = checkInvariants({
        clusters: await system.store.list<Cluster>('cluster.karmada.io', 'Cluster'),
        bindings: await listBindings(system.context),
        allocations: await system.store.list<ClusterAllocation>('scheduling.outrank.io', 'ClusterAllocation'),
        events: await system.events.list(),
      });
      expect(report.violations).toEqual([]);
    },
  );
});
