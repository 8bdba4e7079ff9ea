/**
 * What-if at fleet size: the live state of the scale scenario (its clusters and running workloads,
 * placed) copied into the simulator, then one preemptor's manifests (asking 2 cpu, so that it preempts) tried on it, as
 * `POST /outrank/v1/whatif` does after reading the live state. Timed in-process: the read of the live
 * state from DynamoDB comes on top (one Query page per MB of objects). Also the longest step: the
 * longest the what-if held the event loop, which a write arriving meanwhile may wait.
 */
import { EVENT, SYSTEM_KINDS, TEMPLATE_KINDS } from '../../lib/api/kinds';
import { apiGroupOf } from '../../lib/api/resource-template';
import { withConfig } from '../../lib/config';
import type { StoredObject } from '../../lib/ports/object-store';
import { MemorySystem } from '../../lib/runtime/memory-system';
import { whatIf } from '../../lib/simulate/what-if';
import { scaleScenario } from './scale-scenario';
import { perReference } from './reference';
import { fmt, median, table } from './stats';

const SIZES = [1_000, 10_000];
const RUNS = 3;

async function liveState(workloads: number): Promise<{ live: StoredObject[]; preemptor: unknown[] }> {
  const [setUp, running, preemptors] = scaleScenario({ clusters: 100, workloads, preemptors: 1 }).steps as Array<{ apply: unknown[] }>;
  const system = new MemorySystem(withConfig());
  for (const step of [setUp!, running!]) {
    for (const manifest of step.apply) await system.objects.apply(manifest);
    await system.runUntilIdle();
  }
  const kinds = [...SYSTEM_KINDS.filter((kind) => kind !== EVENT), ...TEMPLATE_KINDS];
  const live = (await Promise.all(kinds.map((kind) => system.store.list(apiGroupOf(kind.apiVersion), kind.kind)))).flat();
  return { live, preemptor: preemptors!.apply.map(askingTwoCpus) };
}

/** The preemptor's Deployment asking 2 cpu, more than any cluster of the scenario has free: it must preempt. */
function askingTwoCpus(manifest: unknown): unknown {
  const object = manifest as { kind: string; spec: { template: { spec: { containers: Array<{ resources: { requests: Record<string, string> } }> } } } };
  if (object.kind !== 'Deployment') return manifest;
  const containers = object.spec.template.spec.containers.map((container) => ({ ...container, resources: { ...container.resources, requests: { ...container.resources.requests, cpu: '2' } } }));
  return { ...object, spec: { ...object.spec, template: { ...object.spec.template, spec: { ...object.spec.template.spec, containers } } } };
}

/** Times `work`, and the longest gap between turns of the event loop while it runs (a turn is queued after each). */
async function timedWithLongestStep<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; longestStepMs: number }> {
  let running = true;
  let longestStepMs = 0;
  let last = performance.now();
  const turn = () => {
    const now = performance.now();
    longestStepMs = Math.max(longestStepMs, now - last);
    last = now;
    if (running) setImmediate(turn);
  };
  setImmediate(turn);
  const started = performance.now();
  const result = await work();
  const finished = performance.now();
  running = false;
  // The last step ends with the work, whether or not a turn came after it.
  return { result, ms: finished - started, longestStepMs: Math.max(longestStepMs, finished - last) };
}

export async function whatIfBenchmark(log: (line: string) => void): Promise<string> {
  const rows: (string | number)[][] = [];
  for (const workloads of SIZES) {
    log(`what-if: live state of ${workloads} workloads`);
    const { live, preemptor } = await liveState(workloads);
    const times: number[] = [];
    const longestSteps: number[] = [];
    let victims = 0;
    for (let run = 0; run < RUNS; run++) {
      const { result, ms, longestStepMs } = await timedWithLongestStep(() => whatIf(live, preemptor, withConfig(), Date.now()));
      times.push(ms);
      longestSteps.push(longestStepMs);
      victims = result.victims.length;
    }
    rows.push([workloads.toLocaleString('en-US'), live.length.toLocaleString('en-US'), victims, fmt(median(times)), perReference(median(times) / 1000), fmt(Math.min(...times)), fmt(median(longestSteps))]);
  }
  return [
    'One preemptor (its PropagationPolicy and a Deployment of 2 cpu, more than any cluster has free) tried on a copy',
    `of the live state of the scale scenario, in-process (test/bench/what-if.ts), ${RUNS} runs each: the copy is restored`,
    'as it is and only what the manifests cause is decided. The API reads the live state first (one list per kind).',
    'The longest step is the longest the what-if held the event loop (between steps it serves other requests).',
    '',
    table(['workloads', 'live objects', 'victims', 'median ms', 'median ÷ reference', 'fastest ms', 'longest step ms (median)'], rows),
  ].join('\n');
}
