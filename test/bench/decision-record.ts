/**
 * Writes every decision of a fixed set of runs to a directory, one file per run, so that two trees can be
 * compared byte for byte (`diff -r`) where a change must leave the decisions as they were:
 *
 *   npx tsx test/bench/decision-record.ts <directory> [run ...]    (on each tree, then diff -r the two directories)
 *
 * The runs: `outrank simulate -o json --events` on every file of examples/ and on the scale scenario at two
 * sizes (one process each, as a user runs it), and the core benchmark's preemption scenarios (fleet.ts) at
 * 30 and 300 bindings per cluster, each decision recorded (targets, victims, whether proven minimal) and
 * then undone, as the core benchmark does.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_CONFIG } from '../../lib/config';
import { frozenCopy } from '../../lib/memory/frozen-copy';
import { scheduleBinding } from '../../lib/scheduler/schedule-binding';
import { SchedulingSnapshot } from '../../lib/scheduler/snapshot';
import { pendingBindings, randomFleet, type FleetShape, type WorkloadOptions } from './fleet';
import { Random } from './random';
import { scaleScenario } from './scale-scenario';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OUTRANK = join(ROOT, 'bin/outrank.mjs');

function simulate(file: string): string {
  return execFileSync(process.execPath, [OUTRANK, 'simulate', '-f', file, '-o', 'json', '--events', '--allow-rejections'], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
}

interface CoreRun {
  readonly name: string;
  readonly running: number;
  readonly shape: FleetShape;
  readonly preemptors: WorkloadOptions;
  readonly decisions: number;
}

const URGENT: WorkloadOptions = { priority: 1_000_000, preemptionPolicy: 'PreemptLowerPriority', cpuMilli: [1_000, 2_000, 4_000], replicas: [1, 4] };
const CONTENDER: WorkloadOptions = { priority: 200, preemptionPolicy: 'PreemptLowerPriority', cpuMilli: [1_000, 2_000], replicas: [1, 3] };
const HARD: FleetShape = { workloads: { cpuMilli: [100, 250] }, podSlack: 0 };
/** Residents too small to make room alone, and one-replica preemptors: several victims on one cluster (the Aggregated quarter). */
const SMALL: FleetShape = { workloads: { cpuMilli: [100, 250, 500], replicas: [1, 2] } };
const ONE_REPLICA: WorkloadOptions = { priority: 1_000_000, preemptionPolicy: 'PreemptLowerPriority', cpuMilli: [1_000, 2_000], replicas: [1, 1] };

const CORE_RUNS: readonly CoreRun[] = [
  { name: 'core-full-30', running: 3_000, shape: {}, preemptors: URGENT, decisions: 600 },
  { name: 'core-full-300', running: 30_000, shape: {}, preemptors: URGENT, decisions: 300 },
  { name: 'core-hard-30', running: 3_000, shape: HARD, preemptors: CONTENDER, decisions: 300 },
  { name: 'core-hard-300', running: 30_000, shape: HARD, preemptors: CONTENDER, decisions: 150 },
  { name: 'core-one-replica-30', running: 3_000, shape: SMALL, preemptors: ONE_REPLICA, decisions: 800 },
  { name: 'core-one-replica-300', running: 30_000, shape: SMALL, preemptors: ONE_REPLICA, decisions: 400 },
];

function coreDecisions({ running, shape, preemptors, decisions }: CoreRun): string {
  const random = new Random(1);
  const fleet = randomFleet(random, 100, running, 1, shape);
  const pending = pendingBindings(random, 100, decisions, 'preemptor', preemptors);
  const snapshot = new SchedulingSnapshot(fleet.clusters, [...fleet.running, ...pending]);
  const lines: string[] = [];
  for (const binding of pending) {
    const decision = scheduleBinding(binding, snapshot, { preemption: true, victimSearchBudget: DEFAULT_CONFIG.victimSearchBudget });
    if (decision.result !== 'scheduled') {
      lines.push(`${binding.metadata.name} ${decision.reason}: ${decision.message}`);
      continue;
    }
    const targets = decision.targets.map((t) => `${t.name}=${t.replicas}`).join(',');
    lines.push(`${binding.metadata.name} ${targets} victims ${decision.victims.map((v) => v.key).join(',') || '-'}${decision.exactVictims ? '' : ' (not proven minimal)'}`);
    snapshot.upsert(frozenCopy({ ...binding, spec: { ...binding.spec, clusters: [...decision.targets] } }));
    for (const victim of decision.victims) {
      const { clusters: _evicted, ...spec } = victim.binding.spec;
      snapshot.upsert(frozenCopy({ ...victim.binding, spec }));
    }
    snapshot.upsert(binding);
    for (const victim of decision.victims) snapshot.upsert(victim.binding);
  }
  return `${lines.join('\n')}\n`;
}

/** Every run, or only those named (a run's name is its file's, without the extension). */
function main(directory: string, only: readonly string[]): void {
  mkdirSync(directory, { recursive: true });
  const wanted = (name: string) => only.length === 0 || only.includes(name);
  const examples = join(ROOT, 'examples');
  for (const file of readdirSync(examples).filter((name) => /\.(ya?ml|json)$/.test(name) && wanted(name)).sort()) {
    writeFileSync(join(directory, `${file}.json`), simulate(join(examples, file)));
    console.error(`recorded ${file}`);
  }
  for (const size of [
    { clusters: 20, workloads: 1_000, preemptors: 50 },
    { clusters: 100, workloads: 10_000, preemptors: 500 },
  ]) {
    const name = `scale-${size.workloads}`;
    if (!wanted(name)) continue;
    const scenario = join(directory, `${name}.scenario.json`);
    writeFileSync(scenario, JSON.stringify(scaleScenario(size)));
    writeFileSync(join(directory, `${name}.json`), simulate(scenario));
    console.error(`recorded ${name}`);
  }
  for (const run of CORE_RUNS.filter(({ name }) => wanted(name))) {
    writeFileSync(join(directory, `${run.name}.txt`), coreDecisions(run));
    console.error(`recorded ${run.name}`);
  }
}

const [directory, ...only] = process.argv.slice(2);
if (!directory) {
  console.error('usage: npx tsx test/bench/decision-record.ts <directory> [run ...]');
  process.exit(2);
}
main(directory, only);
