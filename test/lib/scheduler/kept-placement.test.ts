import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../../lib/api/cluster';
import type { ResourceBinding } from '../../../lib/api/resource-binding';
import { keptPlacement } from '../../../lib/scheduler/kept-placement';
import { SchedulingSnapshot } from '../../../lib/scheduler/snapshot';
import { binding, cluster, divided } from './support';

const PLACED_AT = '2026-01-01T00:00:10.000Z';
const placedAt = (subject: ResourceBinding, time = PLACED_AT): ResourceBinding => ({ ...subject, status: { ...subject.status, lastScheduledTime: time } });
const createdAt = (subject: Cluster, time: string): Cluster => ({ ...subject, metadata: { ...subject.metadata, creationTimestamp: time } });
const aggregated = { replicaScheduling: divided({ replicaDivisionPreference: 'Aggregated' }) };

describe('keeping a placement is checked against the clusters as they are now (binding priority and preemption (000): never over-commit)', () => {
  it.each<[string, Cluster[], ResourceBinding, boolean]>([
    ['on a ready cluster with room for it', [cluster('m1', { allocatable: { cpu: 4 } })], placedAt(binding('a', { request: { cpu: 3 }, clusters: { m1: 1 }, placement: aggregated })), true],
    ['on a cluster that is not ready', [cluster('m1', { allocatable: { cpu: 4 }, ready: 'False' })], placedAt(binding('a', { request: { cpu: 3 }, clusters: { m1: 1 }, placement: aggregated })), false],
    ['on a cluster that does not exist', [], placedAt(binding('a', { request: { cpu: 3 }, clusters: { m1: 1 }, placement: aggregated })), false],
    [
      'on a cluster deleted and created again since it was placed',
      [createdAt(cluster('m1', { allocatable: { cpu: 4 } }), '2026-01-01T00:00:11.000Z')],
      placedAt(binding('a', { request: { cpu: 3 }, clusters: { m1: 1 }, placement: aggregated })),
      false,
    ],
    ['on a cluster now smaller than its replicas there', [cluster('m1', { allocatable: { cpu: 2 } })], placedAt(binding('a', { request: { cpu: 3 }, clusters: { m1: 1 }, placement: aggregated })), false],
    ['Divided, with fewer replicas placed than it has', [cluster('m1', { allocatable: { cpu: 8 } })], placedAt(binding('a', { replicas: 3, clusters: { m1: 2 }, placement: aggregated })), false],
    ['Duplicated, every cluster with all its replicas', [cluster('m1', { allocatable: { cpu: 8 } }), cluster('m2', { allocatable: { cpu: 8 } })], placedAt(binding('a', { replicas: 2, clusters: { m1: 2, m2: 2 } })), true],
    ['Duplicated, a cluster with fewer than all', [cluster('m1', { allocatable: { cpu: 8 } }), cluster('m2', { allocatable: { cpu: 8 } })], placedAt(binding('a', { replicas: 2, clusters: { m1: 2, m2: 1 } })), false],
    [
      'on a cluster whose labels its affinity no longer matches',
      [cluster('m1', { allocatable: { cpu: 8 }, labels: { env: 'test' } })],
      placedAt(binding('a', { clusters: { m1: 1 }, placement: { clusterAffinity: { labelSelector: { matchLabels: { env: 'prod' } } } } })),
      false,
    ],
    [
      'on a cluster that gained a NoSchedule taint it does not tolerate (the taint applies to later placements)',
      [cluster('m1', { allocatable: { cpu: 8 }, taints: [{ key: 'maintenance', effect: 'NoSchedule' }] })],
      placedAt(binding('a', { clusters: { m1: 1 } })),
      true,
    ],
    [
      'on a cluster it is being evicted from',
      [cluster('m1', { allocatable: { cpu: 8 } })],
      placedAt({ ...binding('a', { clusters: { m1: 1 } }), spec: { ...binding('a', { clusters: { m1: 1 } }).spec, gracefulEvictionTasks: [{ fromCluster: 'm1', reason: 'TaintUntolerated', producer: 'TaintManager' }] } }),
      false,
    ],
  ])('%s', (_, clusters, subject, kept) => {
    const snapshot = new SchedulingSnapshot(clusters, [subject]);
    const decision = keptPlacement(subject, snapshot);
    expect(decision).toEqual(kept ? { result: 'scheduled', targets: subject.spec.clusters, affinityName: undefined, victims: [], exactVictims: true } : undefined);
  });
});
