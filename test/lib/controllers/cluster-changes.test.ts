/**
 * Everyday cluster events, as Karmada handles them, through the real controllers (MemorySystem).
 */
import { describe, expect, it } from 'vitest';
import { NO_PODS_ALLOCATABLE } from '../../../lib/controllers/missing-pods';
import { applyAll, bindingOf, cluster, conditionOf, deployment, eventsWithReason, newSystem, placementOfDeployment, propagationPolicy, refs } from './support';

const WEB_POLICY = propagationPolicy('web', { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }] });

describe('a cluster whose resource summary names no pods has room for none (Karmada pkg/estimator/client/general.go, getAllowedPodNumber)', () => {
  it('no replica is placed there, and the cluster gets one Warning naming the missing entry', async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '8' }, { reportsPods: false }), WEB_POLICY, deployment('web')]);
    expect(await placementOfDeployment(system, 'web')).toEqual({});
    expect(conditionOf(await bindingOf(system, 'web'), 'Scheduled')).toMatchObject({ status: 'False', reason: 'Unschedulable' });
    const warnings = await eventsWithReason(system, NO_PODS_ALLOCATABLE);
    expect(warnings.map((event) => [event.type, event.involvedObject.kind, event.involvedObject.name])).toEqual([['Warning', 'Cluster', 'm1']]);
    expect(warnings[0]!.message).toContain('status.resourceSummary.allocatable has no "pods" entry');

    // Another status update still without the entry: no second Warning.
    await system.objects.patch(refs.cluster('m1'), { status: { resourceSummary: { allocatable: { cpu: '9' } } } });
    await system.runUntilIdle();
    expect(await eventsWithReason(system, NO_PODS_ALLOCATABLE)).toHaveLength(1);

    // The entry reported: the waiting binding is woken and placed.
    await system.objects.patch(refs.cluster('m1'), { status: { resourceSummary: { allocatable: { pods: '110' } } } });
    await system.runUntilIdle();
    expect(await placementOfDeployment(system, 'web')).toEqual({ m1: 1 });

    // Losing it again warns again.
    await system.objects.patch(refs.cluster('m1'), { status: { resourceSummary: { allocatable: { pods: null } } } });
    await system.runUntilIdle();
    expect(await eventsWithReason(system, NO_PODS_ALLOCATABLE)).toHaveLength(2);
  });

  it('a cluster that reports no resource summary yet gets no Warning (it has no room either)', async () => {
    const system = newSystem();
    await applyAll(system, [{ apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name: 'm1' } }, WEB_POLICY, deployment('web')]);
    expect(await placementOfDeployment(system, 'web')).toEqual({});
    expect(await eventsWithReason(system, NO_PODS_ALLOCATABLE)).toEqual([]);
  });
});
