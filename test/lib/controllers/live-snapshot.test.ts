import { describe, expect, it } from 'vitest';
import type { ObjectRef } from '../../../lib/api/kinds';
import { Informers } from '../../../lib/cache/informers';
import { allocationAdds, allocationRef } from '../../../lib/controllers/allocations';
import type { ControllerContext } from '../../../lib/controllers/context';
import { liveSnapshot } from '../../../lib/controllers/live-snapshot';
import type { ChangePage, ObjectStore, StoredObject } from '../../../lib/ports/object-store';
import { toResourceList } from '../../../lib/resources';
import { bindingKeyOf } from '../../../lib/scheduler/snapshot';
import { binding } from '../scheduler/support';
import { applyAll, cluster, newSystem } from './support';

/** The store as one cycle sees it, recording what it reads: `get <kind>/<name>` and `changes <kind>`. */
function recording(store: ObjectStore): { store: ObjectStore; reads: string[] } {
  const reads: string[] = [];
  const recorder: ObjectStore = Object.create(store, {
    get: { value: (ref: ObjectRef) => (reads.push(`get ${ref.kind}/${ref.name}`), store.get(ref)) },
    getMany: { value: (refs: readonly ObjectRef[]) => (reads.push(...refs.map((ref) => `get ${ref.kind}/${ref.name}`)), store.getMany(refs)) },
    changes: {
      value: <T extends StoredObject>(group: string, kind: string, cursor?: string): Promise<ChangePage<T>> => (reads.push(`changes ${kind}`), store.changes<T>(group, kind, cursor)),
    },
  });
  return { store: recorder, reads };
}

describe('the live snapshot after a conflict reads again only what it needs', () => {
  it('an allocation whose room another cycle took: the binding feeds (its bindings come with them), not the record nor the clusters', async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '4' }), cluster('m2', { cpu: '4' })]);
    const { store, reads } = recording(system.store);
    const context: ControllerContext = { ...system.context, store, informers: new Informers(store, system.clock) };
    const live = liveSnapshot(context);
    await live.sync();
    expect(live.snapshot.clusters.size).toBe(2);

    // Another cycle places a binding on m1 and moves m1's allocation record in one transaction.
    const placed = binding('other', { clusters: { m1: 2 } });
    const adds = allocationAdds(new Map([['m1', toResourceList({ cpu: '2' })]]), { now: '2026-01-01T00:00:00Z', capacityOf: () => toResourceList({ cpu: '4' }) });
    await system.store.transact([{ op: 'put', object: placed, expectedVersion: null }, ...adds]);
    expect(live.snapshot.bindings.size).toBe(0);

    reads.length = 0;
    await live.refresh([allocationRef('m1')]);
    expect(reads.sort()).toEqual(['changes ClusterResourceBinding', 'changes ResourceBinding']);
    expect([...live.snapshot.bindings.values()].map((state) => state.binding.metadata.name)).toEqual(['other']);
  });

  it('a binding that changed (a victim another cycle evicted): that binding, then the binding feeds that bring the rest of what the other cycles did', async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '4' })]);
    const { store, reads } = recording(system.store);
    const live = liveSnapshot({ ...system.context, store, informers: new Informers(store, system.clock) });
    await live.sync();
    const [written] = await system.store.transact([{ op: 'put', object: binding('b'), expectedVersion: null }]);

    reads.length = 0;
    await live.refresh([{ group: 'work.karmada.io', kind: 'ResourceBinding', namespace: 'default', name: 'b' }]);
    expect(reads).toEqual(['get ResourceBinding/b', 'changes ResourceBinding', 'changes ClusterResourceBinding']);
    expect(live.snapshot.bindings.get(bindingKeyOf(binding('b')))?.binding.metadata.resourceVersion).toBe(written?.metadata.resourceVersion);
  });
});
