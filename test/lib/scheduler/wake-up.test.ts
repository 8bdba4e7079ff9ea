import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toResourceList } from '../../../lib/resources';
import { scheduleBinding } from '../../../lib/scheduler/schedule-binding';
import { SchedulingSnapshot } from '../../../lib/scheduler/snapshot';
import { bindingsToWake, cpuClass, highestFittingClass, roomClass, type FreedRoom, type Placer, type WokenBinding } from '../../../lib/scheduler/wake-up';
import { binding, cluster, divided, onClusters, TEST_CLUSTER_PODS } from './support';

const cpu = (amount: number) => ({ ...toResourceList({ cpu: String(amount) }), pods: TEST_CLUSTER_PODS });
const freed = (name: string, room: number, options: Parameters<typeof cluster>[1] = {}): FreedRoom => ({
  cluster: cluster(name, { allocatable: { cpu: 100 }, ...options }),
  room: cpu(room),
});
const NOW = Date.parse('2026-01-01T00:00:00Z');
const names = (woken: readonly WokenBinding[]) => woken.map(({ binding }) => binding.metadata.name);
const wokenFor = (woken: readonly WokenBinding[]) => Object.fromEntries(woken.map(({ binding, clusters }) => [binding.metadata.name, clusters]));

describe('wake-up after room is freed (binding priority and preemption (000), queue: unschedulable bindings are tried again when room is freed)', () => {
  it.each([
    {
      rule: 'a binding whose one replica fits in the freed room is woken; one that fits nowhere freed is not',
      waiting: [binding('small', { request: { cpu: '1' } }), binding('big', { request: { cpu: '8' } })],
      rooms: [freed('m1', 2)],
      woken: ['small'],
    },
    {
      rule: 'a binding the freed cluster does not admit (affinity) is not woken',
      waiting: [binding('elsewhere', { placement: onClusters('m2') }), binding('here', { placement: onClusters('m1') })],
      rooms: [freed('m1', 4)],
      woken: ['here'],
    },
    {
      rule: 'a binding the freed cluster does not admit (untolerated taint) is not woken',
      waiting: [binding('intolerant')],
      rooms: [freed('m1', 4, { taints: [{ key: 'gpu', value: 'only', effect: 'NoSchedule' }] })],
      woken: [],
    },
    {
      rule: 'a Duplicated binding needs all its replicas on one cluster; a Divided one only one replica',
      waiting: [binding('duplicated', { replicas: 3 }), binding('divided', { replicas: 3, placement: { replicaScheduling: divided() } })],
      rooms: [freed('m1', 2)],
      woken: ['divided'],
    },
    {
      rule: 'highest priority first',
      waiting: [binding('low', { priority: 1 }), binding('high', { priority: 50 }), binding('mid', { priority: 10 })],
      rooms: [freed('m1', 5)],
      woken: ['high', 'mid', 'low'],
    },
    {
      rule: 'a waiting binding still placed on the freed cluster may count what it holds there',
      waiting: [binding('stale', { request: { cpu: '3' }, clusters: { m1: 1 } })],
      rooms: [freed('m1', 1)],
      woken: ['stale'],
    },
  ])('$rule', ({ waiting, rooms, woken }) => {
    expect(names(bindingsToWake(waiting, rooms, NOW))).toEqual(woken);
  });

  it('each binding is woken for the freed clusters it fits on and that admit it (the room it passes on should it not fit)', () => {
    const waiting = [binding('anywhere', { request: { cpu: '1' } }), binding('only-m2', { request: { cpu: '1' }, placement: onClusters('m2') }), binding('roomy', { request: { cpu: '3' } })];
    expect(wokenFor(bindingsToWake(waiting, [freed('m1', 2), freed('m2', 4)], NOW))).toEqual({ anywhere: ['m1', 'm2'], 'only-m2': ['m2'], roomy: ['m2'] });
  });

  it('nothing freed wakes nothing', () => {
    expect(bindingsToWake([binding('a')], [], NOW)).toEqual([]);
  });

  describe('with the schedule cycle\'s snapshot (a placer)', () => {
    const m1 = cluster('m1', { allocatable: { cpu: 4 } });
    const placerOf = (snapshot: SchedulingSnapshot): Placer => ({
      place: (b, reserved) => {
        const decision = scheduleBinding(b, snapshot, { preemption: false, victimSearchBudget: 1_000, reserved });
        return decision.result === 'scheduled' ? decision.targets : undefined;
      },
      room: (name) => snapshot.clusters.get(name)?.room,
    });

    it('places each candidate around the room the ones woken before it will take', () => {
      // Divided by available replicas, "first" goes to m1, the roomier; "second" then fits only on m2.
      const m2 = cluster('m2', { allocatable: { cpu: 2 } });
      const dynamic = { replicaScheduling: divided({ weightPreference: { dynamicWeight: 'AvailableReplicas' } }) };
      const waiting = [binding('first', { priority: 20, request: { cpu: '3' }, placement: dynamic }), binding('second', { priority: 10, request: { cpu: '2' }, placement: dynamic })];
      const snapshot = new SchedulingSnapshot([m1, m2], waiting);
      const rooms = ['m1', 'm2'].map((name) => ({ cluster: snapshot.clusters.get(name)!.cluster, room: snapshot.clusters.get(name)!.room }));
      expect(wokenFor(bindingsToWake(waiting, rooms, NOW, placerOf(snapshot)))).toEqual({ first: ['m1'], second: ['m2'] });
    });

    it('wakes bindings only while the room freed lasts, highest priority first', () => {
      const waiting = [binding('a', { priority: 30, request: { cpu: '2' } }), binding('b', { priority: 20, request: { cpu: '2' } }), binding('c', { priority: 10, request: { cpu: '2' } })];
      const snapshot = new SchedulingSnapshot([m1], waiting);
      expect(names(bindingsToWake(waiting, [{ cluster: m1, room: snapshot.clusters.get('m1')!.room }], NOW, placerOf(snapshot)))).toEqual(['a', 'b']);
    });

    it('skips a candidate that could not be placed, and wakes the next one that can', () => {
      const waiting = [binding('too-many', { priority: 30, replicas: 3, request: { cpu: '2' } }), binding('fits', { priority: 10, request: { cpu: '2' } })];
      const snapshot = new SchedulingSnapshot([m1], waiting);
      expect(names(bindingsToWake(waiting, [{ cluster: m1, room: snapshot.clusters.get('m1')!.room }], NOW, placerOf(snapshot)))).toEqual(['fits']);
    });
  });

  describe('room classes: freed room is offered only to the waiting bindings that may fit in it', () => {
    it.each([
      { binding: binding('none', { request: {} }), roomClass: 0 },
      { binding: binding('one-cpu', { request: { cpu: '1' } }), roomClass: cpuClass(1000) },
      { binding: binding('duplicated', { replicas: 3, request: { cpu: '1' } }), roomClass: cpuClass(3000) },
      { binding: binding('divided', { replicas: 3, request: { cpu: '1' }, placement: { replicaScheduling: divided() } }), roomClass: cpuClass(1000) },
      { binding: binding('still-placed', { request: { cpu: '64' }, clusters: { m1: 1 } }), roomClass: 0 },
    ])('$binding.metadata.name is in class $roomClass', ({ binding: b, roomClass: expected }) => {
      expect(roomClass(b)).toBe(expected);
    });

    it('never leaves out a binding whose least on one cluster fits in some freed room', () => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.array(fc.integer({ min: 0, max: 10_000_000 }), { minLength: 1, maxLength: 4 }), (least, rooms) => {
          const fits = rooms.some((room) => least <= room);
          if (fits) expect(cpuClass(least)).toBeLessThanOrEqual(highestFittingClass(rooms.map((room, index) => ({ cluster: cluster(`m${index}`), room: { cpu: room } }))));
        }),
      );
    });
  });
});
