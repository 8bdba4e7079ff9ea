/**
 * Property test: outrank beside another scheduler, through the real controllers. Random fleets where a
 * share of the workloads is claimed by a policy of another scheduler, which places and moves them through
 * the API as Karmada's scheduler would, while outrank places, preempts and wakes its own, and some of the
 * other scheduler's are handed over to outrank. Whatever the sequence: outrank never places, moves or
 * preempts a binding of the other scheduler (its placement is what that scheduler last wrote), no cluster
 * is over-committed by anyone, and the allocations are what every placed binding occupies.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../../lib/api/cluster';
import type { KubeEvent } from '../../../lib/api/event';
import type { TargetCluster } from '../../../lib/api/resource-binding';
import { checkInvariants } from '../../../lib/check/invariants';
import type { ClusterAllocation } from '../../../lib/controllers/allocations';
import { listBindings } from '../../../lib/controllers/binding-requests';
import type { MemorySystem } from '../../../lib/runtime/memory-system';
import { applyAll, bindingOf, cluster, deployment, findBinding, newSystem, priorityClass, propagationPolicy, refs, SPEC, type Manifest } from '../controllers/support';

const OTHER = 'my-custom-scheduler';
const CLUSTERS = ['m0', 'm1', 'm2'] as const;

type Operation =
  | { readonly op: 'ours'; readonly index: number; readonly replicas: number; readonly priority: 'low' | 'high' }
  /** A workload of the other scheduler's, which places it at once where it says (if there is room). */
  | { readonly op: 'theirs'; readonly index: number; readonly replicas: number; readonly cluster: number }
  /** The other scheduler writes a placement of one of its bindings (refused when there is no room). */
  | { readonly op: 'place'; readonly index: number; readonly targets: ReadonlyArray<{ readonly cluster: number; readonly replicas: number }> }
  /** A policy of outrank's takes the template over (preemption: Always). */
  | { readonly op: 'takeover'; readonly index: number }
  | { readonly op: 'wait' };

const indexArb = fc.integer({ min: 0, max: 4 });
const operationArb: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({ op: fc.constant('ours' as const), index: indexArb, replicas: fc.integer({ min: 1, max: 3 }), priority: fc.constantFrom('low' as const, 'high' as const) }),
  fc.record({ op: fc.constant('theirs' as const), index: indexArb, replicas: fc.integer({ min: 1, max: 3 }), cluster: fc.integer({ min: 0, max: 2 }) }),
  fc.record({
    op: fc.constant('place' as const),
    index: indexArb,
    targets: fc.uniqueArray(fc.record({ cluster: fc.integer({ min: 0, max: 2 }), replicas: fc.integer({ min: 1, max: 3 }) }), { maxLength: 2, selector: (target) => target.cluster }),
  }),
  fc.record({ op: fc.constant('takeover' as const), index: indexArb }),
  fc.constant({ op: 'wait' as const }),
);

const theirs = (index: number) => `t${index}`;
const byName = (policy: string, name: string, spec: Manifest) => propagationPolicy(policy, { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name }], ...spec });

/** What the test knows of the other scheduler's bindings: the placement it last wrote, by template. */
type Written = Map<string, readonly TargetCluster[] | undefined>;

/** The other scheduler's write of a placement; one the clusters have no room for is refused (403), nothing written. */
async function placeAsOther(system: MemorySystem, name: string, targets: ReadonlyArray<{ readonly cluster: number; readonly replicas: number }>, written: Written): Promise<void> {
  const clusters = targets.map((target) => ({ name: CLUSTERS[target.cluster]!, replicas: target.replicas }));
  try {
    await system.objects.patch(refs.binding(name), { spec: { clusters: clusters.length > 0 ? clusters : null } });
    written.set(name, clusters.length > 0 ? clusters : undefined);
  } catch (error) {
    expect((error as Error).name).toBe('NoRoomError');
  }
}

async function perform(system: MemorySystem, operation: Operation, written: Written, handedOver: Set<string>): Promise<void> {
  switch (operation.op) {
    case 'ours':
      await system.objects.apply(byName(`o${operation.index}`, `o${operation.index}`, { schedulePriority: { priorityClassName: operation.priority } }));
      await system.objects.apply(deployment(`o${operation.index}`, { replicas: operation.replicas, requests: { cpu: '1' } }));
      return;
    case 'theirs': {
      const name = theirs(operation.index);
      if (handedOver.has(name)) return;
      await system.objects.apply(byName(name, name, { schedulerName: OTHER, schedulePriority: { priorityClassName: 'low' } }));
      await system.objects.apply(deployment(name, { replicas: operation.replicas, requests: { cpu: '1' } }));
      if (!written.has(name)) written.set(name, undefined);
      await system.runUntilIdle();
      await placeAsOther(system, name, [{ cluster: operation.cluster, replicas: operation.replicas }], written);
      return;
    }
    case 'place': {
      const name = theirs(operation.index);
      if (!written.has(name) || handedOver.has(name)) return;
      await placeAsOther(system, name, operation.targets, written);
      return;
    }
    case 'takeover': {
      const name = theirs(operation.index);
      if (!written.has(name) || handedOver.has(name)) return;
      await system.objects.apply(byName(`ours-${name}`, name, { priority: 10, preemption: 'Always', schedulePriority: { priorityClassName: 'low' } }));
      handedOver.add(name);
      written.delete(name);
      return;
    }
    case 'wait':
      await system.advance(5 * 60_000);
  }
}

describe(`outrank beside another scheduler (${SPEC.priority}, "Preemption in multi-scheduler"; Karmada's schedulerNameFilter)`, () => {
  it("never places, moves or preempts the other scheduler's bindings, and nobody over-commits a cluster", { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 3, maxLength: 3 }), fc.array(operationArb, { minLength: 4, maxLength: 24 }), async (cpus, operations) => {
        const system = newSystem();
        await applyAll(system, [
          ...CLUSTERS.map((name, index) => cluster(name, { cpu: String(cpus[index]) })),
          // Low is preemptible and high may preempt it: only the scheduler names keep outrank off the other's.
          priorityClass('low', 1),
          priorityClass('high', 1_000),
        ]);
        const written: Written = new Map();
        const handedOver = new Set<string>();
        for (const operation of operations) {
          await perform(system, operation, written, handedOver);
          await system.runUntilIdle();
          for (const [name, clusters] of written) {
            const binding = await bindingOf(system, name);
            expect({ step: operation, name, scheduler: binding.spec.schedulerName, clusters: binding.spec.clusters }).toEqual({ step: operation, name, scheduler: OTHER, clusters });
          }
          const report = checkInvariants(
            {
              clusters: await system.store.list<Cluster>('cluster.karmada.io', 'Cluster'),
              bindings: await listBindings(system.context),
              allocations: await system.store.list<ClusterAllocation>('scheduling.outrank.io', 'ClusterAllocation'),
              events: (await system.events.list()) as KubeEvent[],
            },
            system.context.config.schedulerNames,
          );
          expect({ step: operation, violations: report.violations }).toEqual({ step: operation, violations: [] });
        }
        const preempted = (await system.events.list()).filter((event) => event.reason === 'Preempted').map((event) => event.involvedObject.name);
        for (const name of written.keys()) expect(preempted).not.toContain(`${name}-deployment`);
        for (const name of handedOver) expect((await findBinding(system, name))?.spec.schedulerName).toBe('default-scheduler');
        expect(system.handlerErrors).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });
});
