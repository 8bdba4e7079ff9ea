/**
 * The density benchmark's decisions for counting under cachegrind (counted-density.ts): one scenario's
 * fleet at one density, then its first `decisions` preemptors decided, each applied and undone as the
 * core benchmark does. Two runs that differ only in how many they decide give, by their difference, what
 * the decisions between them cost, without the fleet's building or the compiler's first work.
 *
 *   node <bundle of this file> <fleet-full | one-replica> <bindings per cluster> <decisions>
 */
import { SchedulingSnapshot } from '../../lib/scheduler/snapshot';
import { decideOnce, DENSITY_SCENARIOS } from './core';
import { Random } from './random';

const [name, perCluster, decisions] = process.argv.slice(2);
if (!(name! in DENSITY_SCENARIOS) || !/^[1-9]\d*$/.test(perCluster ?? '') || !/^\d+$/.test(decisions ?? '')) {
  throw new Error(`usage: counted-decisions <${Object.keys(DENSITY_SCENARIOS).join(' | ')}> <bindings per cluster> <decisions>`);
}
const { fleet, pending } = DENSITY_SCENARIOS[name as keyof typeof DENSITY_SCENARIOS](new Random(1), Number(perCluster));
if (Number(decisions) > pending.length) throw new Error(`the ${name} scenario has ${pending.length} preemptors, fewer than ${decisions}`);
const snapshot = new SchedulingSnapshot(fleet.clusters, [...fleet.running, ...pending]);
for (let i = 0; i < Number(decisions); i++) decideOnce(snapshot, pending[i]!);
