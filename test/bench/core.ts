/**
 * Benchmark 1: scheduling decisions per second on one thread, over 100 clusters and 10,000 running
 * bindings: with room (placements) and with a full fleet (preemption).
 */
import type { ResourceBinding } from '../../lib/api/resource-binding';
import { DEFAULT_CONFIG } from '../../lib/config';
import { frozenCopy } from '../../lib/memory/frozen-copy';
import { replicaStrategy } from '../../lib/scheduler/replica-strategy';
import { scheduleBinding, type ScheduleDecision, type ScheduleOptions } from '../../lib/scheduler/schedule-binding';
import { SchedulingSnapshot } from '../../lib/scheduler/snapshot';
import { pendingBindings, randomFleet, type Fleet } from './fleet';
import { Random } from './random';
import { referenceSeconds } from './reference';
import { fmt, median, summarize, table } from './stats';

const CLUSTERS = 100;
const RUNNING = 10_000;
const OPTIONS: ScheduleOptions = { preemption: true, victimSearchBudget: DEFAULT_CONFIG.victimSearchBudget };
const STRATEGIES = ['duplicated', 'static-weight', 'available-replicas', 'aggregated'];

interface Scenario {
  readonly name: string;
  readonly target: number;
  readonly fleet: Fleet;
  /** Each decision is about a binding of its own, so that no cache sees the same binding twice. */
  readonly pending: readonly ResourceBinding[];
  readonly warmup: number;
  /** Stops early past this much measured time, to keep `npm run bench` short on slow code. */
  readonly maxMs: number;
}

interface Sample {
  readonly strategy: string;
  readonly outcome: 'placed' | 'preempted' | 'unschedulable';
  readonly victims: number;
  /** The victim search proved its answer minimal (true when there was no search). */
  readonly exact: boolean;
  readonly decideMs: number;
  readonly applyMs: number;
}

interface Run {
  readonly samples: Sample[];
  /** Process CPU time over the measured decisions (garbage collection threads included). */
  readonly cpuMs: number;
}

/** What the schedule cycle does with a decision in its snapshot: the placed binding and the evicted victims. */
function apply(snapshot: SchedulingSnapshot, binding: ResourceBinding, decision: ScheduleDecision): void {
  if (decision.result !== 'scheduled') return;
  snapshot.upsert(frozenCopy({ ...binding, spec: { ...binding.spec, clusters: [...decision.targets] } }));
  for (const victim of decision.victims) {
    const { clusters: _evicted, ...spec } = victim.binding.spec;
    snapshot.upsert(frozenCopy({ ...victim.binding, spec }));
  }
}

/** Puts the fleet back as it was, so that every decision faces the same 10,000 running bindings. */
function undo(snapshot: SchedulingSnapshot, binding: ResourceBinding, decision: ScheduleDecision): void {
  snapshot.upsert(binding);
  if (decision.result === 'scheduled') for (const victim of decision.victims) snapshot.upsert(victim.binding);
}

/** One decision on `snapshot`, applied and undone as the schedule cycle would: what it was and what it took. */
export function decideOnce(snapshot: SchedulingSnapshot, binding: ResourceBinding): Sample {
  const start = performance.now();
  const decision = scheduleBinding(binding, snapshot, OPTIONS);
  const decided = performance.now();
  apply(snapshot, binding, decision);
  const applied = performance.now();
  undo(snapshot, binding, decision);
  const victims = decision.result === 'scheduled' ? decision.victims.length : 0;
  return {
    strategy: replicaStrategy(binding.spec.placement).type,
    outcome: decision.result === 'unschedulable' ? 'unschedulable' : victims > 0 ? 'preempted' : 'placed',
    victims,
    exact: decision.result === 'unschedulable' || decision.exactVictims,
    decideMs: decided - start,
    applyMs: applied - decided,
  };
}

const snapshotOf = (scenario: Scenario) => new SchedulingSnapshot(scenario.fleet.clusters, [...scenario.fleet.running, ...scenario.pending]);

function run(scenario: Scenario): Run {
  const snapshot = snapshotOf(scenario);
  const samples: Sample[] = [];
  let measuredMs = 0;
  let cpu = process.cpuUsage();
  for (let i = 0; i < scenario.pending.length && measuredMs < scenario.maxMs; i++) {
    if (i === scenario.warmup) cpu = process.cpuUsage();
    const sample = decideOnce(snapshot, scenario.pending[i]!);
    if (i < scenario.warmup) continue;
    measuredMs += sample.decideMs + sample.applyMs;
    samples.push(sample);
  }
  const used = process.cpuUsage(cpu);
  return { samples, cpuMs: (used.user + used.system) / 1000 };
}

/**
 * The scenarios' decisions taken in turn, one of each at a time (the first of the pair alternating), so
 * that the host's speed, which drifts over seconds, weighs on each alike; each decision's process CPU
 * time is counted to its scenario. As many decisions of each as the shortest has, until one's measured
 * time passes its maxMs.
 */
function runSideBySide(scenarios: readonly Scenario[]): Run[] {
  const snapshots = scenarios.map(snapshotOf);
  const runs = scenarios.map(() => ({ samples: [] as Sample[], cpuMs: 0, measuredMs: 0 }));
  const length = Math.min(...scenarios.map((scenario) => scenario.pending.length));
  for (let i = 0; i < length && runs.every((run, at) => run.measuredMs < scenarios[at]!.maxMs); i++) {
    for (let turn = 0; turn < scenarios.length; turn++) {
      const at = (turn + i) % scenarios.length;
      const cpu = process.cpuUsage();
      const sample = decideOnce(snapshots[at]!, scenarios[at]!.pending[i]!);
      const used = process.cpuUsage(cpu);
      if (i < scenarios[at]!.warmup) continue;
      runs[at]!.samples.push(sample);
      runs[at]!.cpuMs += (used.user + used.system) / 1000;
      runs[at]!.measuredMs += sample.decideMs + sample.applyMs;
    }
  }
  return runs;
}

function perSecond(samples: readonly Sample[]): number {
  return (samples.length / samples.reduce((sum, s) => sum + s.decideMs + s.applyMs, 0)) * 1000;
}

function row(label: string, samples: readonly Sample[]): (string | number)[] {
  const decide = summarize(samples.map((s) => s.decideMs));
  const count = (outcome: Sample['outcome']) => samples.filter((s) => s.outcome === outcome).length;
  const preempting = samples.filter((s) => s.outcome === 'preempted');
  const meanVictims = preempting.length === 0 ? 0 : preempting.reduce((sum, s) => sum + s.victims, 0) / preempting.length;
  return [
    label,
    samples.length,
    fmt(perSecond(samples)),
    fmt(decide.p50Ms * 1000),
    fmt(decide.p99Ms * 1000),
    `${count('placed')} / ${count('preempted')} / ${count('unschedulable')}`,
    fmt(meanVictims),
  ];
}

/** The median of five timings of `work`, each on what an untimed `prepare` makes for it. */
function medianMs<T>(prepare: () => T, work: (prepared: T) => unknown): number {
  return median(
    Array.from({ length: 5 }, () => {
      const prepared = prepare();
      const start = performance.now();
      work(prepared);
      return performance.now() - start;
    }),
  );
}

/** Arrivals timed, one at a time, in a live snapshot. */
const ARRIVALS = 50;

/**
 * What the next preemption pays for a binding that arrived in a live snapshot (the schedule cycle's,
 * kept across batches): the priority order with it merged in, and every cluster's residents by rank
 * in that order; the median over ARRIVALS arrivals, one at a time.
 */
function arrivalMs(fleet: Fleet, arrivals: readonly ResourceBinding[]): number {
  const snapshot = new SchedulingSnapshot(fleet.clusters, fleet.running);
  const clusters = [...snapshot.clusters.values()];
  const readAll = () => {
    snapshot.priorityOrder();
    for (const cluster of clusters) snapshot.rankedResidents(cluster);
  };
  readAll();
  return median(
    arrivals.map((binding) => {
      snapshot.upsert(binding);
      const start = performance.now();
      readAll();
      return performance.now() - start;
    }),
  );
}

/** Bindings per cluster at which a preemption decision's cost is compared (100 clusters). */
export const DENSITIES = [30, 300];

/** The rows of one density table: a preemption decision at each density, on the fleet and preemptors `scenario` makes. */
function densityRows(
  log: (line: string) => void,
  label: string,
  scenario: (random: Random, perCluster: number) => Pick<Scenario, 'fleet' | 'pending'>,
): { rows: (string | number)[][]; means: number[]; cpuPerDecision: number[] } {
  const reference = referenceSeconds();
  const rows: (string | number)[][] = [];
  const means: number[] = [];
  const cpuPerDecision: number[] = [];
  log(`core: ${label} at ${DENSITIES.join(' and ')} bindings per cluster, side by side`);
  const runs = runSideBySide(
    DENSITIES.map((perCluster) => ({ name: `${perCluster} per cluster`, target: 0, ...scenario(new Random(1), perCluster), warmup: 200, maxMs: 60_000 })),
  );
  DENSITIES.forEach((perCluster, at) => {
    const { samples, cpuMs } = runs[at]!;
    const decide = summarize(samples.map((s) => s.decideMs));
    const p50Of = (part: readonly Sample[]) => (part.length === 0 ? 0 : summarize(part.map((s) => s.decideMs)).p50Ms * 1000);
    const several = samples.filter((s) => s.victims > 1);
    const severalMeanUs = several.length === 0 ? 0 : (several.reduce((sum, s) => sum + s.decideMs, 0) / several.length) * 1000;
    const meanUs = (samples.reduce((sum, s) => sum + s.decideMs, 0) / samples.length) * 1000;
    means.push(meanUs);
    cpuPerDecision.push(cpuMs / samples.length);
    rows.push([
      perCluster,
      samples.length,
      fmt(meanUs),
      fmt(decide.p50Ms * 1000),
      fmt(decide.p99Ms * 1000),
      fmt(p50Of(samples.filter((s) => s.victims === 1))),
      fmt(p50Of(several)),
      fmt(severalMeanUs),
      `${samples.filter((s) => !s.exact).length}`,
      fmt((samples.length / cpuMs) * 1000),
      reference === undefined ? 'n/a' : fmt((meanUs / 1000 / (reference * 1000)) * 1e3),
    ]);
  });
  return { rows, means, cpuPerDecision };
}

const DENSITY_HEADER = [
  'bindings per cluster',
  'decisions',
  'mean µs',
  'p50 µs',
  'p99 µs',
  'p50 µs, one victim',
  'p50 µs, several',
  'mean µs, several',
  'not proven minimal',
  'per CPU-s',
  'mean ÷ reference (ms per s)',
];

/**
 * The mean decision at the higher density over the lower, and the same of the process's CPU time per
 * decision (recording and undoing it included, garbage collection threads too), which a host whose other
 * tenants take the processor away disturbs less than the wall clock.
 */
function densityRatios({ means, cpuPerDecision }: { means: number[]; cpuPerDecision: number[] }): string {
  return `Mean at ${DENSITIES[1]} ÷ mean at ${DENSITIES[0]}: ${fmt(means[1]! / means[0]!)}; CPU time per decision, the same: ${fmt(cpuPerDecision[1]! / cpuPerDecision[0]!)}.`;
}

/**
 * A preemption decision at 30 and at 300 bindings per cluster, side by side: the fleet-full scenario's
 * fleet and preemptors at both sizes, then preemptors met on one cluster (Aggregated, one replica) among
 * residents too small to make room alone, on one thread, with the host's reference time measured in the
 * same run (../shared/bench/calibrate.mjs), so that the figures compare across hosts.
 */
/** The two scenarios a preemption decision is compared at two densities with: their fleets and preemptors. */
export const DENSITY_SCENARIOS = {
  /** The fleet-full scenario's fleet and preemptors. */
  'fleet-full': (random: Random, perCluster: number) => ({
    fleet: randomFleet(random, CLUSTERS, CLUSTERS * perCluster, 1),
    pending: pendingBindings(random, CLUSTERS, 1_200, 'urgent', {
      priority: 1_000_000,
      preemptionPolicy: 'PreemptLowerPriority',
      cpuMilli: [1_000, 2_000, 4_000],
      replicas: [1, 4],
    }),
  }),
  /** Preemptors met on one cluster (Aggregated, one replica) among residents too small to make room alone. */
  'one-replica': (random: Random, perCluster: number) => ({
    fleet: randomFleet(random, CLUSTERS, CLUSTERS * perCluster, 1, { workloads: { cpuMilli: [100, 250, 500], replicas: [1, 2] } }),
    // A quarter of the pending bindings are Aggregated; only those are kept.
    pending: pendingBindings(random, CLUSTERS, 4_800, 'urgent', {
      priority: 1_000_000,
      preemptionPolicy: 'PreemptLowerPriority',
      cpuMilli: [1_000, 2_000],
      replicas: [1, 1],
    }).filter((binding) => replicaStrategy(binding.spec.placement).type === 'aggregated'),
  }),
} as const;

export function densityComparison(log: (line: string) => void): string {
  const reference = referenceSeconds();
  const full = densityRows(log, 'preemption', DENSITY_SCENARIOS['fleet-full']);
  const oneCluster = densityRows(log, 'one-replica preemption among small residents', DENSITY_SCENARIOS['one-replica']);
  return [
    `A preemption decision (\`scheduleBinding\` alone) on the fleet-full scenario at ${DENSITIES.join(' and ')} bindings per cluster (${CLUSTERS} clusters,`,
    `${DENSITIES.map((d) => (d * CLUSTERS).toLocaleString('en-US')).join(' and ')} running bindings), 1,000 decisions each after 200 to warm up, taken in turn (one at each density at a time, so that the host's drift weighs on both alike). Reference time of this host`,
    `(../shared/bench/calibrate.mjs, same run): ${reference === undefined ? 'not available' : `${fmt(reference)} s`}.`,
    densityRatios(full),
    '',
    table(DENSITY_HEADER, full.rows),
    '',
    'Fleets of the same shape with running bindings of 100m–500m cpu and 1–2 replicas, and Aggregated preemptors of one replica of 1–2 cpu',
    '(a requirement met on one cluster, over a region: a third of the fleet) that need several victims on one cluster.',
    densityRatios(oneCluster),
    '',
    table(DENSITY_HEADER, oneCluster.rows),
  ].join('\n');
}

/** Decisions in the time the host takes for the reference (decisions/s × reference s), which compares across hosts. */
function perReferenceTime(perSecond: number): string {
  const reference = referenceSeconds();
  return reference === undefined ? '–' : fmt(perSecond * reference);
}

export function coreBenchmark(log: (line: string) => void): string {
  const random = new Random(1);
  const roomy = randomFleet(random, CLUSTERS, RUNNING, 0.7);
  const full = randomFleet(random, CLUSTERS, RUNNING, 1);
  // Many small victims, preemptors whose priority is among the residents' (only part of them may go),
  // and no pod to spare: every replica placed needs pods freed as well as cpu.
  const hard = randomFleet(random, CLUSTERS, RUNNING, 1, { workloads: { cpuMilli: [100, 250] }, podSlack: 0 });
  const scenarios: Scenario[] = [
    {
      name: 'placement (room exists)',
      target: 10_000,
      fleet: roomy,
      pending: pendingBindings(random, CLUSTERS, 22_000, 'new', {}),
      warmup: 2_000,
      maxMs: 60_000,
    },
    {
      name: 'preemption (fleet full)',
      target: 1_000,
      fleet: full,
      pending: pendingBindings(random, CLUSTERS, 4_200, 'urgent', {
        priority: 1_000_000,
        preemptionPolicy: 'PreemptLowerPriority',
        cpuMilli: [1_000, 2_000, 4_000],
        replicas: [1, 4],
      }),
      warmup: 200,
      maxMs: 60_000,
    },
    {
      name: 'preemption, hard fleet',
      target: 1_000,
      fleet: hard,
      pending: pendingBindings(random, CLUSTERS, 2_200, 'contender', {
        priority: 200,
        preemptionPolicy: 'PreemptLowerPriority',
        cpuMilli: [1_000, 2_000],
        replicas: [1, 3],
      }),
      warmup: 200,
      maxMs: 60_000,
    },
  ];

  const header = ['decisions', 'decisions/s', 'p50 µs', 'p99 µs', 'placed / preempted / unschedulable', 'mean victims'];
  const summary: (string | number)[][] = [];
  const byStrategy: (string | number)[][] = [];
  let searches: Sample[] = [];
  for (const scenario of scenarios) {
    log(`core: ${scenario.name}`);
    const { samples, cpuMs } = run(scenario);
    const wall = perSecond(samples);
    const perCpu = (samples.length / cpuMs) * 1000;
    summary.push([...row(scenario.name, samples), fmt(perCpu), perReferenceTime(wall), fmt(scenario.target), wall >= scenario.target ? 'met' : 'missed']);
    for (const strategy of STRATEGIES) byStrategy.push(row(`${scenario.name}: ${strategy}`, samples.filter((s) => s.strategy === strategy)));
    if (scenario.fleet === full) searches = samples.filter((s) => s.outcome === 'preempted');
  }
  const exact = searches.filter((s) => s.exact);
  const cut = searches.filter((s) => !s.exact);
  const share = (part: readonly Sample[]) => part.reduce((sum, s) => sum + s.decideMs, 0);

  const notSeenBefore = () => roomy.running.map((b) => frozenCopy(structuredClone(b)));
  const fresh = medianMs(notSeenBefore, (running) => new SchedulingSnapshot(roomy.clusters, running));
  const seen = medianMs(
    () => roomy.running,
    (running) => new SchedulingSnapshot(roomy.clusters, running),
  );
  const order = medianMs(
    () => new SchedulingSnapshot(full.clusters, full.running),
    (snapshot) => snapshot.priorityOrder(),
  );
  const arrival = arrivalMs(full, pendingBindings(random, CLUSTERS, ARRIVALS, 'arrival', {}));

  return [
    `${CLUSTERS} clusters, ${RUNNING.toLocaleString('en-US')} running bindings (seed 1): mixed priorities (−100 to 2,000), requests`,
    '(100m–2 cpu, 128Mi–2Gi), Duplicated on 1–3 named clusters, static weights over 2–4, Divided by available replicas',
    'or Aggregated over a region (a third of the fleet), a tenth with two affinity terms, a fifth tolerating the taint',
    'a tenth of the clusters carry. Placement: clusters at 70 % of allocatable, new bindings of any priority. Preemption:',
    'clusters full to 50m cpu, new bindings of priority 1,000,000 asking 1–4 replicas of 1–4 cpu. Hard fleet: running',
    'bindings of 100m–250m cpu, clusters full to 50m cpu and with no pod to spare, new bindings of priority 200 (among the',
    "residents' priorities: those at 500 and above may not be evicted) asking 1–3 replicas of 1–2 cpu, so that each needs",
    'many small victims and pods freed.',
    '',
    'A decision is `scheduleBinding` (filter, divide, and when needed plan preemption with the default victim search',
    `budget of ${DEFAULT_CONFIG.victimSearchBudget.toLocaleString('en-US')} oracle calls) plus recording it in the snapshot (placed binding, evicted victims),`,
    'as the schedule cycle does in its live snapshot (kept across batches and invocations); the fleet is put back after each. One thread; decisions/s is wall clock, "per CPU-s"',
    'divides by the process CPU time (GC threads included), which a loaded machine disturbs less. p50/p99 are of',
    '`scheduleBinding` alone. Each decision is about a different binding. "Per reference time": decisions/s × the reference time, decisions made in the time the host takes for the reference.',
    '',
    table(['scenario', ...header, 'per CPU-s', 'per reference time', 'target /s', 'target'], summary),
    '',
    'By replica strategy of the binding being scheduled:',
    '',
    table(['scenario', ...header], byStrategy),
    '',
    `Preemption decisions whose victim search proved its answer minimal: ${exact.length}, ${fmt(share(exact) / Math.max(exact.length, 1))} ms each on average;`,
    `those that spent the whole budget first: ${cut.length} (${fmt((100 * cut.length) / Math.max(searches.length, 1))} %), ${fmt(share(cut) / Math.max(cut.length, 1))} ms each,`,
    `${fmt((100 * share(cut)) / Math.max(share(searches), 1))} % of all preemption time.`,
    '',
    `Building a \`SchedulingSnapshot\` of ${CLUSTERS} clusters and ${RUNNING.toLocaleString('en-US')} bindings (what a cold start of schedule-cycle does once):`,
    `${fmt(fresh)} ms from objects not seen before (as read from DynamoDB), ${fmt(seen)} ms from objects already`,
    `read (the in-memory store's), median of 5; the first preemption in a snapshot also orders its bindings by priority, ${fmt(order)} ms.`,
    `A binding arriving in a live snapshot is merged into that order when the next preemption asks, the clusters' residents`,
    `by rank carried over rather than sorted again: ${fmt(arrival)} ms for the order and all ${CLUSTERS} clusters' residents (median of ${ARRIVALS} arrivals, one at a time).`,
    '',
    densityComparison(log),
  ].join('\n');
}
