/** What a binding's page says about it (console/binding-facts.ts). */
import { describe, expect, it } from 'vitest';
import { historyOf, namedClass, policyOf, preemptorsOf, prioritySource, scheduledCondition, templatePath, victimsOf } from '../../console/binding-facts';
import type { Binding, KubeEvent } from '../../console/model';
import { requestsOf } from '../../console/requests';

function binding(name: string, extra: { uid?: string; created?: string; labels?: Record<string, string>; annotations?: Record<string, string>; priority?: number } = {}): Binding {
  return {
    kind: 'ResourceBinding',
    metadata: {
      name,
      namespace: 'team-a',
      creationTimestamp: extra.created ?? '2026-01-01T00:05:00Z',
      ...(extra.uid ? { uid: extra.uid } : {}),
      ...(extra.labels ? { labels: extra.labels } : {}),
      ...(extra.annotations ? { annotations: extra.annotations } : {}),
    },
    spec: { resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'team-a', name: name.replace(/-deployment$/, '') }, schedulePriority: { priority: extra.priority ?? 10 } },
    status: { conditions: [{ type: 'Scheduled', status: 'False', reason: 'Unschedulable', message: '0/2 clusters are available: 2 Insufficient nvidia.com/gpu.' }] },
  };
}

const ref = (name: string, uid?: string) => ({ kind: 'ResourceBinding', namespace: 'team-a', name, ...(uid ? { uid } : {}) });
function event(name: string, reason: string, time: string, involved: ReturnType<typeof ref>, related?: ReturnType<typeof ref>): KubeEvent {
  return { metadata: { name, uid: name, annotations: { 'outrank.io/victim-priority': '1' } }, involvedObject: involved, ...(related ? { related } : {}), type: 'Normal', reason, message: `${reason} ${name}`, lastTimestamp: time };
}

const POLICY_LABELS = { 'propagationpolicy.karmada.io/namespace': 'team-a', 'propagationpolicy.karmada.io/name': 'gpus' };

describe('a binding\'s facts', () => {
  it('its current Scheduled condition, and what it asks per replica and in all, GPUs included', () => {
    const web: Binding = { ...binding('web-deployment'), spec: { ...binding('web-deployment').spec, replicas: 3, replicaRequirements: { resourceRequest: { 'nvidia.com/gpu': '2', cpu: '1500m' } } } };
    expect(scheduledCondition(web)).toMatchObject({ reason: 'Unschedulable', message: '0/2 clusters are available: 2 Insufficient nvidia.com/gpu.' });
    expect(requestsOf(web)).toEqual({
      perReplica: [{ resource: 'cpu', quantity: '1500m' }, { resource: 'nvidia.com/gpu', quantity: '2' }],
      replicas: 3,
      total: [{ resource: 'cpu', quantity: '4500m' }, { resource: 'nvidia.com/gpu', quantity: '6' }],
    });
  });

  it('the policy that made it, by the labels Karmada\'s detector puts on it, and where the API serves it', () => {
    expect(policyOf(binding('web-deployment', { labels: POLICY_LABELS }))).toEqual({ kind: 'PropagationPolicy', namespace: 'team-a', name: 'gpus', path: '/apis/policy.karmada.io/v1alpha1/namespaces/team-a/propagationpolicies/gpus' });
    expect(policyOf(binding('web-deployment', { labels: { 'clusterpropagationpolicy.karmada.io/name': 'all' } }))).toMatchObject({ kind: 'ClusterPropagationPolicy', name: 'all', path: '/apis/policy.karmada.io/v1alpha1/clusterpropagationpolicies/all' });
    expect(policyOf(binding('web-deployment'))).toBeUndefined();
  });

  it('where its template is served, for the kinds outrank claims and serves', () => {
    const of = (apiVersion: string, kind: string) => templatePath({ ...binding('x'), spec: { resource: { apiVersion, kind, namespace: 'team-a', name: 'x' } } });
    expect(of('apps/v1', 'Deployment')).toBe('/apis/apps/v1/namespaces/team-a/deployments/x');
    expect(of('batch/v1', 'Job')).toBe('/apis/batch/v1/namespaces/team-a/jobs/x');
    expect(of('v1', 'Service')).toBe('/api/v1/namespaces/team-a/services/x');
    expect(of('networking.k8s.io/v1', 'Ingress')).toBe('/apis/networking.k8s.io/v1/namespaces/team-a/ingresses/x');
    expect(of('networking.k8s.io/v1', 'NetworkPolicy')).toBe('/apis/networking.k8s.io/v1/namespaces/team-a/networkpolicies/x');
  });

  it('where its priority comes from: the policy\'s class, or the pod template\'s with priorityClassSource PodPriorityClass', () => {
    const web = binding('web-deployment', { labels: POLICY_LABELS, priority: 1_000 });
    const byPolicy = { spec: { schedulePriority: { priorityClassSource: 'KubePriorityClass', priorityClassName: 'urgent' } } };
    const byPod = { spec: { schedulePriority: { priorityClassSource: 'PodPriorityClass' } } };
    const template = { spec: { template: { spec: { priorityClassName: 'gpu-high' } } } };
    expect(namedClass(byPolicy, undefined)).toEqual({ source: 'KubePriorityClass', name: 'urgent' });
    expect(namedClass(byPod, template)).toEqual({ source: 'PodPriorityClass', name: 'gpu-high' });
    expect(prioritySource(web, byPolicy, undefined, { value: 1_000 })).toBe('PriorityClass urgent (value 1000), named by PropagationPolicy team-a/gpus');
    expect(prioritySource(web, byPod, template, { value: 1_000 })).toBe('PriorityClass gpu-high (value 1000), named by the pod template’s priorityClassName (PropagationPolicy team-a/gpus: priorityClassSource PodPriorityClass)');
    expect(prioritySource(web, byPolicy, undefined, { value: 5 })).toContain('its value is now 5, but the binding keeps the priority resolved when its template or policy last changed');
    expect(prioritySource(web, byPolicy, undefined, null)).toBe('PriorityClass urgent, named by PropagationPolicy team-a/gpus, does not exist: the global default PriorityClass’s value, or 0 without one');
    expect(prioritySource(web, { spec: {} }, undefined, undefined)).toBe('no PriorityClass named by PropagationPolicy team-a/gpus: the global default PriorityClass’s value, or 0 without one');
    expect(prioritySource(web, null, undefined, undefined)).toContain('which no longer exists');
    expect(prioritySource(web, undefined, undefined, undefined)).toBe('PropagationPolicy team-a/gpus…');
    expect(prioritySource(binding('x'), undefined, undefined, undefined)).toBe('no policy named on the binding: its schedulePriority as written');
  });

  it('its history by uid: oldest first, without the events of an earlier binding of the same name', () => {
    const now = binding('web-deployment', { uid: 'uid-2' });
    const events = [
      event('earlier-placed', 'ScheduleBindingSucceed', '2026-01-01T00:01:00Z', ref('web-deployment', 'uid-1')),
      event('failed', 'ScheduleBindingFailed', '2026-01-01T00:07:00Z', ref('web-deployment', 'uid-2')),
      event('made', 'BindingCreated', '2026-01-01T00:05:00Z', ref('web-deployment', 'uid-2')),
      // Recorded before events kept uids: told apart by time, before or after the binding was made.
      event('old-no-uid', 'X', '2026-01-01T00:04:59Z', ref('web-deployment')),
      event('new-no-uid', 'Y', '2026-01-01T00:06:00Z', ref('web-deployment')),
      event('other', 'Z', '2026-01-01T00:06:00Z', ref('api-deployment', 'uid-3')),
    ];
    expect(historyOf(now, events).map((e) => e.metadata.name)).toEqual(['made', 'new-no-uid', 'failed']);
  });

  it('who preempted it, by its Preempted events and, after they expired, its outrank.io/preempted-by annotation', () => {
    const victim = binding('batch-deployment', { uid: 'v', annotations: { 'outrank.io/preempted-by': 'ResourceBinding.work.karmada.io/team-b/train-deployment@2026-01-01T00:08:00Z' } });
    expect(preemptorsOf(victim, [])).toEqual([{ kind: 'ResourceBinding', namespace: 'team-b', name: 'train-deployment', time: '2026-01-01T00:08:00Z', message: 'preempted when team-b/train-deployment was placed' }]);
    const events = [event('p', 'Preempted', '2026-01-01T00:08:00Z', ref('batch-deployment', 'v'), { kind: 'ResourceBinding', namespace: 'team-b', name: 'train-deployment' })];
    expect(preemptorsOf(victim, events)).toEqual([{ kind: 'ResourceBinding', namespace: 'team-b', name: 'train-deployment', time: '2026-01-01T00:08:00Z', message: 'Preempted p' }]);
  });

  it('whom it preempted: the Preempted events naming it (this binding, by uid) as related, newest first', () => {
    const preemptor = binding('train-deployment', { uid: 'p2' });
    const events = [
      event('first', 'Preempted', '2026-01-01T00:06:00Z', ref('a-deployment'), ref('train-deployment', 'p2')),
      event('second', 'Preempted', '2026-01-01T00:09:00Z', ref('b-deployment'), ref('train-deployment', 'p2')),
      event('by-earlier', 'Preempted', '2026-01-01T00:02:00Z', ref('c-deployment'), ref('train-deployment', 'p1')),
      event('not-preempted', 'ScheduleBindingSucceed', '2026-01-01T00:09:00Z', ref('train-deployment', 'p2')),
    ];
    expect(victimsOf(preemptor, events).map((victim) => [victim.namespace, victim.name, victim.victimPriority])).toEqual([
      ['team-a', 'b-deployment', '1'],
      ['team-a', 'a-deployment', '1'],
    ]);
  });
});
