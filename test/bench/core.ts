/**
 * Benchmark 1: scheduling decisions per second on one thread, over 100 clusters and 10,000 running
 * bindings, with room (placements) and with a full fleet (preemption).
 */
import type { ResourceBinding } from '../../lib/api/resource-binding';
import { DEFAULT_CONFIG } from '../../lib/config';
import { deepFreeze } from '../../lib/memory/deep-freeze';
import { replicaStrategy } from '../../lib/scheduler/replica-strategy';
import { scheduleBinding, type ScheduleDecision, type ScheduleOptions } from '../../lib/scheduler/schedule-binding';
import { SchedulingSnapshot } from '../../lib/scheduler/snapshot';
import { pendingBindings, randomFleet, type Fleet } from './fleet';
import { Random } from './random';
import { fmt, median, summarize, table } from './stats';

const CLUSTERS = 100;
const RUNNING = 10_000;
const OPTIONS: ScheduleOptions = { preemption: true, victimSearchBudget: DEFAULT_CONFIG.victimSearchBudget };

interface Scenario {
  readonly name: string;
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
  readonly decideMs: number;
  readonly applyMs: number;
}

/** What the schedule cycle does with a decision in its snapshot: the placed binding and the evicted victims. */
function apply(snapshot: SchedulingSnapshot, binding: ResourceBinding, decision: ScheduleDecision): void {
  if (decision.result !== 'scheduled') return;
  snapshot.upsert(deepFreeze({ ...binding, spec: { ...binding.spec, clusters: [...decision.targets] } }));
  for (const victim of decision.victims) {
    const { clusters: _evicted, ...spec } = victim.binding.spec;
    snapshot.upsert(deepFreeze({ ...victim.binding, spec }));
  }
}

/** Puts the fleet back as it was, so that every decision faces the same 10,000 running bindings. */
function undo(snapshot: SchedulingSnapshot, binding: ResourceBinding, decision: ScheduleDecision): void {
  snapshot.upsert(binding);
  if (decision.result === 'scheduled') for (const victim of decision.victims) snapshot.upsert(victim.binding);
}

interface Run {
  readonly samples: Sample[];
  /** Process CPU time over the measured decisions (garbage collection threads included). */
  readonly cpuMs: number;
}

function run(scenario: Scenario): Run {
  const snapshot = new SchedulingSnapshot(scenario.fleet.clusters, [...scenario.fleet.running, ...scenario.pending]);
  const samples: Sample[] = [];
  let measuredMs = 0;
  let cpu = process.cpuUsage();
  for (let i = 0; i < scenario.pending.length && measuredMs < scenario.maxMs; i++) {
    if (i === scenario.warmup) cpu = process.cpuUsage();
    const binding = scenario.pending[i]!;
    const start = performance.now();
    const decision = scheduleBinding(binding, snapshot, OPTIONS);
    const decided = performance.now();
    apply(snapshot, binding, decision);
    const applied = performance.now();
    undo(snapshot, binding, decision);
    if (i < scenario.warmup) continue;
    measuredMs += applied - start;
    const victims = decision.result === 'scheduled' ? decision.victims.length : 0;
    samples.push({
      strategy: replicaStrategy(binding.spec.placement).type,
      outcome: decision.result === 'unschedulable' ? 'unschedulable' : victims > 0 ? 'preempted' : 'placed',
      victims,
      decideMs: decided - start,
      applyMs: applied - decided,
    });
  }
  const used = process.cpuUsage(cpu);
  return { samples, cpuMs: (used.user + used.system) / 1000 };
}

function row(label: string, samples: readonly Sample[], cpuMs?: number): (string | number)[] {
  const decide = summarize(samples.map((s) => s.decideMs));
  const total = samples.reduce((sum, s) => sum + s.decideMs + s.applyMs, 0);
  const count = (outcome: Sample['outcome']) => samples.filter((s) => s.outcome === outcome).length;
  const preempting = samples.filter((s) => s.outcome === 'preempted');
  const meanVictims = preempting.length === 0 ? 0 : preempting.reduce((sum, s) => sum + s.victims, 0) / preempting.length;
  return [
    label,
    samples.length,
    fmt((samples.length / total) * 1000),
    cpuMs === undefined ? '' : fmt((samples.length / cpuMs) * 1000),
    fmt(decide.p50Ms * 1000),
    fmt(decide.p99Ms * 1000),
    `${count('placed')} / ${count('preempted')} / ${count('unschedulable')}`,
    fmt(meanVictims),
  ];
}

function snapshotBuildMs(fleet: Fleet): { seen: number; fresh: number } {
  const all = fleet.running;
  const seen: number[] = [];
  const fresh: number[] = [];
  for (let i = 0; i < 5; i++) {
    const copies = all.map((binding) => deepFreeze(structuredClone(binding)));
    let start = performance.now();
    new SchedulingSnapshot(fleet.clusters, copies);
    fresh.push(performance.now() - start);
    start = performance.now();
    new SchedulingSnapshot(fleet.clusters, copies);
    seen.push(performance.now() - start);
  }
  return { seen: median(seen), fresh: median(fresh) };
}

export function coreBenchmark(log: (line: string) => void): string {
  const random = new Random(1);
  const roomy = randomFleet(random, CLUSTERS, RUNNING, 0.7);
  const full = randomFleet(random, CLUSTERS, RUNNING, 1);
  const scenarios: Scenario[] = [
    {
      name: 'placement (room exists)',
      fleet: roomy,
      pending: pendingBindings(random, CLUSTERS, 22_000, 'new', {}),
      warmup: 2_000,
      maxMs: 60_000,
    },
    {
      name: 'preemption (fleet full)',
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
  ];

  const rows: (string | number)[][] = [];
  const byStrategy: (string | number)[][] = [];
  for (const scenario of scenarios) {
    log(`core: ${scenario.name}`);
    const { samples, cpuMs } = run(scenario);
    rows.push(row(scenario.name, samples, cpuMs));
    for (const strategy of ['duplicated', 'static-weight', 'available-replicas', 'aggregated']) {
      byStrategy.push(row(`${scenario.name}: ${strategy}`, samples.filter((s) => s.strategy === strategy)));
    }
  }
  const build = snapshotBuildMs(roomy);
  const header = ['scenario', 'decisions', 'decisions/s', 'per CPU-second', 'p50 µs', 'p99 µs', 'placed / preempted / unschedulable', 'mean victims'];
  return [
    `${CLUSTERS} clusters, ${RUNNING.toLocaleString('en-US')} running bindings (seed 1). A decision is \`scheduleBinding\` plus`,
    'recording it in the snapshot (placed binding and evicted victims), as the schedule cycle does; the fleet is',
    'put back after each one. Latencies are of `scheduleBinding` alone.',
    '',
    table(header, rows),
    '',
    'By replica strategy of the binding being scheduled:',
    '',
    table(header, byStrategy),
    '',
    `Building a \`SchedulingSnapshot\` of ${CLUSTERS} clusters and ${RUNNING.toLocaleString('en-US')} bindings (the schedule cycle builds one per batch): ` +
      `${fmt(build.fresh)} ms from objects never seen before (as read from DynamoDB), ${fmt(build.seen)} ms from objects already read (median of 5).`,
  ].join('\n');
}
