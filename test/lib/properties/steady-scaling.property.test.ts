/**
 * Property test of Steady scaling (Karmada's pkg/scheduler/core/assignment.go, dynamicScaleUp and
 * dynamicScaleDown) on random fleets given to scheduleBinding directly: a placed binding of a dynamic strategy
 * (available replicas or Aggregated) is scaled to a random count among other placed bindings, with preemption
 * on or off. The model (whole CPUs, a pod per replica) is written from the rules, not from the implementation.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../../lib/api/cluster';
import type { ResourceBinding } from '../../../lib/api/resource-binding';
import { scheduleBinding } from '../../../lib/scheduler/schedule-binding';
import { SchedulingSnapshot } from '../../../lib/scheduler/snapshot';
import { binding, cluster } from '../scheduler/support';

type Placement = Record<string, number>;

interface Resident {
  readonly priority: number;
  readonly preemptible: boolean;
  readonly cpu: number;
  readonly placement: Placement;
}

interface Scenario {
  /** Each cluster's CPUs and pods, what the residents and the subject hold there and some slack. */
  readonly clusters: ReadonlyArray<{ readonly name: string; readonly cpu: number; readonly pods: number }>;
  readonly residents: readonly Resident[];
  readonly subject: {
    readonly strategy: 'available-replicas' | 'aggregated';
    readonly cpu: number;
    readonly priority: number;
    readonly placement: Placement;
    readonly replicas: number;
    readonly uid: string;
  };
  readonly preemption: boolean;
}

const placementOn = (names: readonly string[], maxReplicas: number) =>
  fc.subarray([...names], { minLength: 1 }).chain((chosen) =>
    fc.tuple(...chosen.map((name) => fc.integer({ min: 1, max: maxReplicas }).map((replicas) => [name, replicas] as const))).map((entries) => Object.fromEntries(entries)),
  );

const sum = (placement: Placement) => Object.values(placement).reduce((total, replicas) => total + replicas, 0);

const scenarioArb: fc.Arbitrary<Scenario> = fc.integer({ min: 1, max: 4 }).chain((count) => {
  const names = Array.from({ length: count }, (_, i) => `c${i}`);
  return fc
    .record({
      residents: fc.array(
        fc.record({
          priority: fc.integer({ min: 0, max: 10 }),
          preemptible: fc.integer({ min: 0, max: 3 }).map((n) => n > 0),
          cpu: fc.integer({ min: 1, max: 3 }),
          placement: placementOn(names, 3),
        }),
        { maxLength: 5 },
      ),
      subject: fc.record({
        strategy: fc.constantFrom<'available-replicas' | 'aggregated'>('available-replicas', 'aggregated'),
        cpu: fc.integer({ min: 1, max: 2 }),
        priority: fc.integer({ min: 0, max: 12 }),
        placement: placementOn(names, 4),
        replicas: fc.integer({ min: 0, max: 16 }),
        uid: fc.uuid(),
      }),
      cpuSlack: fc.tuple(...names.map(() => fc.integer({ min: 0, max: 6 }))),
      podSlack: fc.tuple(...names.map(() => fc.integer({ min: 0, max: 6 }))),
      preemption: fc.boolean(),
    })
    .map(({ residents, subject, cpuSlack, podSlack, preemption }) => ({
      clusters: names.map((name, i) => {
        const used = residents.reduce((total, r) => total + r.cpu * (r.placement[name] ?? 0), 0) + subject.cpu * (subject.placement[name] ?? 0);
        const pods = residents.reduce((total, r) => total + (r.placement[name] ?? 0), 0) + (subject.placement[name] ?? 0);
        return { name, cpu: used + cpuSlack[i]!, pods: pods + podSlack[i]! };
      }),
      residents,
      subject,
      preemption,
    }));
});

const targetsOf = (placement: Placement) => Object.entries(placement).map(([name, replicas]) => ({ name, replicas }));

function bindings(scenario: Scenario): { residents: ResourceBinding[]; subject: ResourceBinding } {
  const residents = scenario.residents.map((resident, index) =>
    binding(`resident-${index}`, {
      priority: resident.priority,
      preemptionPolicy: 'Never',
      preemptible: resident.preemptible,
      request: { cpu: String(resident.cpu) },
      replicas: sum(resident.placement),
      clusters: resident.placement,
    }),
  );
  const { subject } = scenario;
  const replicaScheduling =
    subject.strategy === 'aggregated'
      ? { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' }
      : { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted', weightPreference: { dynamicWeight: 'AvailableReplicas' } };
  return {
    residents,
    subject: binding('subject', {
      priority: subject.priority,
      request: { cpu: String(subject.cpu) },
      replicas: subject.replicas,
      clusters: subject.placement,
      placement: { replicaScheduling },
      resourceUid: subject.uid,
    }),
  };
}

function check(scenario: Scenario): void {
  const { residents, subject } = bindings(scenario);
  const fleet: Cluster[] = scenario.clusters.map(({ name, cpu, pods }) => cluster(name, { allocatable: { cpu, pods } }));
  const decision = scheduleBinding(subject, new SchedulingSnapshot(fleet, [...residents, subject]), { preemption: scenario.preemption, victimSearchBudget: 20_000 });
  const before = scenario.subject.placement;
  const placedBefore = sum(before);
  const wanted = scenario.subject.replicas;

  if (wanted <= placedBefore) {
    // Scale-down (or as many): only replicas removed, from the clusters in use; no room needed, nobody preempted.
    expect(decision.result).toBe('scheduled');
    if (decision.result !== 'scheduled') return;
    expect(decision.victims).toEqual([]);
    expect(decision.targets.reduce((total, t) => total + t.replicas, 0)).toBe(wanted);
    for (const target of decision.targets) expect(target.replicas).toBeLessThanOrEqual(before[target.name] ?? 0);
    if (wanted === placedBefore) expect(decision.targets).toEqual(targetsOf(before).sort((a, b) => (a.name < b.name ? -1 : 1)));
    return;
  }

  if (decision.result !== 'scheduled') return;
  // Scale-up: every kept replica stays where it is.
  const after = Object.fromEntries(decision.targets.map((t) => [t.name, t.replicas]));
  expect(decision.targets.reduce((total, t) => total + t.replicas, 0)).toBe(wanted);
  for (const [name, replicas] of Object.entries(before)) expect(after[name] ?? 0, `kept on ${name}`).toBeGreaterThanOrEqual(replicas);
  // Only with preemption allowed are there victims: lower-priority, preemptible, never the subject.
  const victims = new Set(decision.victims.map((victim) => victim.binding.metadata.name));
  if (!scenario.preemption) expect(victims.size).toBe(0);
  expect(victims.has('subject')).toBe(false);
  for (const [index, resident] of scenario.residents.entries()) {
    if (!victims.has(`resident-${index}`)) continue;
    expect(resident.preemptible).toBe(true);
    expect(resident.priority).toBeLessThan(scenario.subject.priority);
  }
  // Never over-committed: what stays and what the subject now runs fit every cluster.
  for (const { name, cpu, pods } of scenario.clusters) {
    const staying = scenario.residents.filter((_, index) => !victims.has(`resident-${index}`));
    const usedCpu = staying.reduce((total, r) => total + r.cpu * (r.placement[name] ?? 0), 0) + scenario.subject.cpu * (after[name] ?? 0);
    const usedPods = staying.reduce((total, r) => total + (r.placement[name] ?? 0), 0) + (after[name] ?? 0);
    expect(usedCpu, `cpu on ${name}`).toBeLessThanOrEqual(cpu);
    expect(usedPods, `pods on ${name}`).toBeLessThanOrEqual(pods);
  }
}

describe('Steady scaling on random fleets (assignment.go, dynamicScaleUp / dynamicScaleDown)', () => {
  it('a scale-up never moves a kept replica and never over-commits, preempting only when allowed; a scale-down only removes replicas', () => {
    fc.assert(fc.property(scenarioArb, check), { numRuns: 3_000 });
  });
});
