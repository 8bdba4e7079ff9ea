/**
 * The density benchmark's decisions for counting under cachegrind (counted-density.ts): one scenario's
 * fleet at one density, its first `warm` preemptors decided, a full garbage collection, then the next
 * `counted` decided, each applied and undone as the core benchmark does. Two runs that differ only in
 * `counted` give, by their difference, what those decisions cost, without the fleet's building or the
 * compiler's first work. The collection between makes the old generation's marking, which reads the
 * whole heap, fall where the counted decisions' own allocation brings it, rather than wherever the
 * building left it: a few bytes more or less allocated before would otherwise move a marking of the
 * 30,000-binding fleet into the counted decisions or out of them.
 *
 *   node --expose-gc <bundle of this file> <fleet-full | one-replica> <bindings per cluster> <warm> <counted>
 */
import { SchedulingSnapshot } from '../../lib/scheduler/snapshot';
import { decideOnce, DENSITY_SCENARIOS } from './core';
import { Random } from './random';

const [name, perCluster, warm, counted] = process.argv.slice(2);
if (!(name! in DENSITY_SCENARIOS) || !/^[1-9]\d*$/.test(perCluster ?? '') || !/^\d+$/.test(warm ?? '') || !/^\d+$/.test(counted ?? '')) {
  throw new Error(`usage: counted-decisions <${Object.keys(DENSITY_SCENARIOS).join(' | ')}> <bindings per cluster> <warm> <counted>`);
}
const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error('counted-decisions: run node with --expose-gc');
const { fleet, pending } = DENSITY_SCENARIOS[name as keyof typeof DENSITY_SCENARIOS](new Random(1), Number(perCluster));
const decisions = Number(warm) + Number(counted);
if (decisions > pending.length) throw new Error(`the ${name} scenario has ${pending.length} preemptors, fewer than ${decisions}`);
const snapshot = new SchedulingSnapshot(fleet.clusters, [...fleet.running, ...pending]);
for (let i = 0; i < Number(warm); i++) decideOnce(snapshot, pending[i]!);
collect();
for (let i = Number(warm); i < decisions; i++) decideOnce(snapshot, pending[i]!);
