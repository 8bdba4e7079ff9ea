/** How full a cluster is, resource by resource, as the console draws it (console/fill.ts). */
import { describe, expect, it } from 'vitest';
import { clusterFill, FILL_BINS, fillBin, fillHistograms, fleetPercent, fleetResources, fullest } from '../../console/fill';
import type { Cluster, ClusterAllocation } from '../../console/model';

function cluster(name: string, allocatable: Record<string, string | number>, others: { allocated?: Record<string, string>; allocating?: Record<string, string> } = {}): Cluster {
  return { metadata: { name }, status: { resourceSummary: { allocatable, ...others } } };
}
const placed = (name: string, amounts: Record<string, number>): ClusterAllocation => ({ metadata: { name }, spec: { placed: amounts } });

describe('cluster fill', () => {
  it('counts every resource the cluster reports, GPUs and other extended resources after cpu, memory and pods', () => {
    const fills = clusterFill(cluster('m1', { 'nvidia.com/gpu': '4', cpu: '8', 'example.com/fpga': 2, memory: '32Gi', pods: '110' }), placed('m1', { cpu: 2_500, memory: 4 * 1024 ** 3, 'nvidia.com/gpu': 1, pods: 3 }));
    expect(fills.map((fill) => [fill.resource, fill.label])).toEqual([
      ['cpu', '2500m / 8'],
      ['memory', '4Gi / 32Gi'],
      ['pods', '3 / 110'],
      ['example.com/fpga', '0 / 2'],
      ['nvidia.com/gpu', '1 / 4'],
    ]);
  });

  it('is full for GPUs when every GPU is placed, however much cpu is left: the GPUs are its fullest resource', () => {
    const fills = clusterFill(cluster('gpu', { cpu: '64', memory: '256Gi', pods: '110', 'nvidia.com/gpu': '4' }), placed('gpu', { cpu: 4_000, memory: 8 * 1024 ** 3, pods: 4, 'nvidia.com/gpu': 4 }));
    const gpu = fills.find((fill) => fill.resource === 'nvidia.com/gpu')!;
    expect(gpu.fraction).toBe(1);
    expect(fillBin(gpu.fraction)).toBe(FILL_BINS.length - 1);
    expect(fullest(fills)).toMatchObject({ resource: 'nvidia.com/gpu', fraction: 1 });
    expect(fills.find((fill) => fill.resource === 'cpu')!.fraction).toBeCloseTo(1 / 16);
  });

  it('counts against what the cluster leaves outrank: allocatable − allocated − allocating, as the scheduler does', () => {
    const [gpu] = clusterFill(cluster('m1', { 'nvidia.com/gpu': '8' }, { allocated: { 'nvidia.com/gpu': '4' }, allocating: { 'nvidia.com/gpu': '2' } }), placed('m1', { 'nvidia.com/gpu': 1 }));
    expect(gpu).toMatchObject({ resource: 'nvidia.com/gpu', placed: 1, capacity: 2, allocatable: 8, others: 6, fraction: 0.5, label: '1 / 2' });
  });

  it('is full for a resource others took all of, and shows a resource outrank placed that the cluster no longer reports', () => {
    const fills = clusterFill(cluster('m1', { cpu: '4' }, { allocated: { cpu: '4' } }), placed('m1', { 'nvidia.com/gpu': 2 }));
    expect(fills.map((fill) => [fill.resource, fill.capacity, fill.fraction])).toEqual([
      ['cpu', 0, 1],
      ['nvidia.com/gpu', 0, 1],
    ]);
  });

  it('a cluster with no allocation yet is empty', () => {
    expect(clusterFill(cluster('m1', { cpu: '2' }), undefined)).toMatchObject([{ resource: 'cpu', placed: 0, fraction: 0, label: '0 / 2' }]);
  });
});

describe('the fleet\'s fill', () => {
  const fleet = [
    clusterFill(cluster('a', { cpu: '10', 'nvidia.com/gpu': '4' }), placed('a', { cpu: 9_990, 'nvidia.com/gpu': 4 })),
    clusterFill(cluster('b', { cpu: '10' }), placed('b', { cpu: 500 })),
    clusterFill(cluster('c', { cpu: '10', 'nvidia.com/gpu': '4' }), placed('c', { 'nvidia.com/gpu': 1 })),
  ];

  it('bins each cluster by fill in tenths, a full one apart', () => {
    expect([0, 0.05, 0.1, 0.999, 1, 1.5].map(fillBin)).toEqual([0, 0, 1, 9, 10, 10]);
    expect(FILL_BINS[0]).toBe('0–9%');
    expect(FILL_BINS[9]).toBe('90–99%');
    expect(FILL_BINS[10]).toBe('full');
  });

  it('counts clusters per bin and resource; a cluster without GPUs is not counted for them', () => {
    const histograms = fillHistograms(fleet);
    expect(histograms.get('cpu')).toEqual([2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0]);
    expect(histograms.get('nvidia.com/gpu')).toEqual([0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1]);
  });

  it('names every resource of the fleet once, in order, and its whole placed / capacity in whole percent', () => {
    expect(fleetResources(fleet)).toEqual(['cpu', 'nvidia.com/gpu']);
    expect(fleetPercent(fleet, 'cpu')).toBe(34); // 10,490m of 30
    expect(fleetPercent(fleet, 'nvidia.com/gpu')).toBe(62); // 5 of 8
    expect(fleetPercent(fleet, 'example.com/fpga')).toBe(0);
  });
});
