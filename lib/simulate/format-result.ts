import { renderTable } from '../format/table';
import type { StandingCounts } from './binding-tally';
import { fullestPercent, resourceOrder, type ClusterFill } from './cluster-fill';
import { bindingsTable, eventsTable, objectName, placement } from './format-details';
import type { Preemption } from './preemptions';
import type { SimulationResult, StepSummary } from './run-scenario';

/**
 * How much of each list the default output shows: a fleet's simulation (2,000 workloads, 100 clusters,
 * thousands of events) then fits a screen or two. -o wide shows every item.
 */
const SHOWN = {
  /** The first steps and the last ones, when there are more than both. */
  firstSteps: 15,
  lastSteps: 5,
  /** The highest priorities; the others are summed up in one line. */
  priorities: 10,
  /** The first placements that preempted, and the first victims of each. */
  preemptions: 10,
  victims: 3,
  /** The fullest clusters; the others are counted by how full they are. */
  clusters: 10,
  rejections: 10,
  errors: 10,
  /** Kinds named in a step's ACTION. */
  kinds: 3,
} as const;

export interface FormatOptions {
  /** Every item of every list, and a row per binding (-o wide). */
  readonly wide?: boolean;
  /** Every event with its step and virtual time (--events). */
  readonly events?: boolean;
  /** The scenario's description, printed first. */
  readonly description?: string;
}

function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}

/** "apply 104 objects (100 Cluster, 4 PriorityClass)", "wait 5m". */
function actionText(step: StepSummary): string {
  if (step.action === 'wait') return `wait ${step.wait}`;
  const kinds = Object.entries(step.kinds ?? {});
  const named = kinds.slice(0, SHOWN.kinds).map(([kind, count]) => `${count} ${kind}`);
  if (kinds.length > SHOWN.kinds) named.push('…');
  return `${step.action} ${plural(step.objects ?? 0, 'object')} (${named.join(', ')})`;
}

/** The rows of a capped list and the line saying how many were left out, if any. */
function capped<T>(items: readonly T[], shown: number, wide: boolean): { rows: readonly T[]; more: number } {
  return wide || items.length <= shown ? { rows: items, more: 0 } : { rows: items.slice(0, shown), more: items.length - shown };
}

function stepsSection(steps: readonly StepSummary[], wide: boolean): string {
  const row = (s: StepSummary) => [
    String(s.step), s.time, actionText(s), String(s.bindings.placed), String(s.bindings.waiting), String(s.bindings.suspended), String(s.preempted), String(s.rejected),
  ];
  const headers = ['STEP', 'TIME', 'ACTION', 'PLACED', 'WAITING', 'SUSPENDED', 'PREEMPTED', 'REJECTED'];
  const { firstSteps, lastSteps } = SHOWN;
  if (wide || steps.length <= firstSteps + lastSteps) return renderTable(headers, steps.map(row));
  const lines = renderTable(headers, [...steps.slice(0, firstSteps), ...steps.slice(-lastSteps)].map(row)).split('\n');
  const hidden = steps.length - firstSteps - lastSteps;
  return [...lines.slice(0, 1 + firstSteps), `… ${plural(hidden, 'more step')} (-o wide for all)`, ...lines.slice(1 + firstSteps)].join('\n');
}

function sum(counts: ReadonlyArray<StandingCounts & { bindings: number; preempted: number }>) {
  const total = { bindings: 0, placed: 0, waiting: 0, suspended: 0, preempted: 0 };
  for (const c of counts) {
    total.bindings += c.bindings;
    total.placed += c.placed;
    total.waiting += c.waiting;
    total.suspended += c.suspended;
    total.preempted += c.preempted;
  }
  return total;
}

function prioritiesSection(priorities: SimulationResult['priorities'], wide: boolean): string {
  const { rows, more } = capped(priorities, SHOWN.priorities, wide);
  const table = renderTable(
    ['PRIORITY', 'BINDINGS', 'PLACED', 'WAITING', 'SUSPENDED', 'PREEMPTED'],
    rows.map((p) => [p.priority, p.bindings, p.placed, p.waiting, p.suspended, p.preempted].map(String)),
  );
  if (more === 0) return table;
  const rest = priorities.slice(rows.length);
  const total = sum(rest);
  return `${table}\n… ${plural(more, 'more priority', 'more priorities')} (${rest[0]!.priority} down to ${rest.at(-1)!.priority}): ${plural(total.bindings, 'binding')}, ${total.placed} placed, ${total.waiting} waiting, ${total.suspended} suspended, ${total.preempted} preempted (-o wide for each)`;
}

function bindingName(binding: { namespace?: string; name: string }): string {
  return binding.namespace ? `${binding.namespace}/${binding.name}` : binding.name;
}

function victimsText(victims: Preemption['victims'], wide: boolean): string {
  const { rows, more } = capped(victims, SHOWN.victims, wide);
  const named = rows.map((v) => `${bindingName(v)} (${v.priority})`).join(', ');
  return more > 0 ? `${named} +${more} more` : named;
}

function preemptionsSection(preemptions: readonly Preemption[], wide: boolean): string {
  const { rows, more } = capped(preemptions, SHOWN.preemptions, wide);
  const table = renderTable(
    ['STEP', 'TIME', 'PREEMPTOR', 'PRIORITY', 'CLUSTERS', 'VICTIMS (PRIORITY)'],
    rows.map((p) => [String(p.step), p.time, bindingName(p.preemptor), String(p.priority), placement(p.clusters), victimsText(p.victims, wide)]),
  );
  return more > 0 ? `${table}\n… ${plural(more, 'more preemption')} (-o wide or --events for all)` : table;
}

function fillText(fill: ClusterFill, resource: string): string {
  const found = fill.resources.find((r) => r.resource === resource);
  if (!found) return '-';
  if (found.allocatable === null) return `${found.placed}/<none>`;
  return `${found.placed}/${found.allocatable} (${found.percent ?? 0}%)`;
}

/** Bands of how full a cluster's fullest resource is, for the clusters the default output does not list. */
const FILL_BANDS = [
  { label: '100%', from: 100 },
  { label: '90-99%', from: 90 },
  { label: '50-89%', from: 50 },
  { label: 'under 50%', from: 0 },
] as const;

function distribution(rest: readonly ClusterFill[]): string {
  const counts = FILL_BANDS.map(() => 0);
  for (const fill of rest) counts[FILL_BANDS.findIndex((band) => fullestPercent(fill) >= band.from)]! += 1;
  const bands = FILL_BANDS.flatMap((band, index) => (counts[index]! > 0 ? [`${band.label}: ${counts[index]}`] : []));
  const notReady = rest.filter((fill) => !fill.ready).length;
  return `… ${plural(rest.length, 'more cluster')}, by their fullest resource: ${bands.join(', ')}${notReady > 0 ? `; ${notReady} not ready` : ''} (-o wide for all)`;
}

function clustersSection(clusters: readonly ClusterFill[], wide: boolean): string {
  const fullestFirst = [...clusters].sort((a, b) => fullestPercent(b) - fullestPercent(a) || a.name.localeCompare(b.name));
  const ordered = [...new Set(clusters.flatMap((fill) => fill.resources.map((r) => r.resource)))].sort(resourceOrder);
  const { rows, more } = capped(fullestFirst, SHOWN.clusters, wide);
  const table = renderTable(
    ['CLUSTER', 'READY', ...ordered.map((r) => r.toUpperCase())],
    rows.map((fill) => [fill.name, fill.ready ? 'True' : 'False', ...ordered.map((r) => fillText(fill, r))]),
  );
  return more > 0 ? `${table}\n${distribution(fullestFirst.slice(rows.length))}` : table;
}

function rejectionsSection(rejections: SimulationResult['rejections'], wide: boolean): string {
  const { rows, more } = capped(rejections, SHOWN.rejections, wide);
  const table = renderTable(['STEP', 'REJECTED', 'MESSAGE'], rows.map((r) => [String(r.step), objectName(r.object), r.message]));
  return more > 0 ? `${table}\n… ${plural(more, 'more rejected write')} (-o wide for all)` : table;
}

function errorsSection(errors: readonly string[], wide: boolean): string {
  const { rows, more } = capped(errors, SHOWN.errors, wide);
  return `Errors:\n${[...rows.map((e) => `  ${e}`), ...(more > 0 ? [`  … ${more} more`] : [])].join('\n')}`;
}

function totalsLine(result: SimulationResult): string {
  const total = sum(result.priorities);
  const { policyPreemptions, bindingPreemptions } = result.metrics;
  const parts = [
    `${plural(total.bindings, 'binding')} (${total.placed} placed, ${total.waiting} waiting, ${total.suspended} suspended) on ${plural(result.clusters.length, 'cluster')}`,
    bindingPreemptions === 0 ? 'no binding preempted' : `${plural(bindingPreemptions, 'binding')} preempted by ${plural(result.preemptions.length, 'placement')}`,
    ...(policyPreemptions.success + policyPreemptions.error > 0 ? [`policy preemptions: ${policyPreemptions.success} succeeded, ${policyPreemptions.error} failed`] : []),
    `${plural(result.rejections.length, 'write')} refused`,
  ];
  return `Total: ${parts.join('; ')}.`;
}

/** The detail options not asked for, as a last line. */
function hint(options: FormatOptions): string | undefined {
  const more = [
    ...(options.wide ? [] : ['-o wide (every binding, cluster and preemption)']),
    ...(options.events ? [] : ['--events (every event, with its step and time)']),
  ];
  return more.length === 0 ? undefined : `More: ${more.join(', ')}, -o json|yaml (all of it).`;
}

/**
 * The simulation for people: per step what it did and where the bindings stood, the bindings of each
 * priority, the placements that preempted and their victims, refused writes, how full each cluster is,
 * and a line of totals; lists are cut to their first items unless `wide`. The details asked for
 * (a row per binding, every event) come before it, so that the summary ends the output.
 */
export function formatSimulation(result: SimulationResult, options: FormatOptions = {}): string {
  const wide = options.wide === true;
  const sections: string[] = [];
  if (wide) sections.push(bindingsTable(result.bindings));
  if (options.events && result.events.length > 0) sections.push(eventsTable(result.events));
  if (options.description) sections.push(options.description);
  sections.push(stepsSection(result.steps, wide));
  if (result.priorities.length > 0) sections.push(prioritiesSection(result.priorities, wide));
  if (result.preemptions.length > 0) sections.push(preemptionsSection(result.preemptions, wide));
  if (result.rejections.length > 0) sections.push(rejectionsSection(result.rejections, wide));
  if (result.clusters.length > 0) sections.push(clustersSection(result.clusters, wide));
  if (result.errors.length > 0) sections.push(errorsSection(result.errors, wide));
  sections.push([totalsLine(result), hint(options)].filter(Boolean).join('\n'));
  return sections.join('\n\n');
}
