/**
 * One process of the concurrency test, standing for one Lambda execution environment of each
 * queue-driven function: the handlers loaded in-process against the tables and queues the
 * environment names (as the stack sets it), the pollers driven as event source mappings drive them,
 * and schedule-cycle also started directly, as the EventBridge schedule does, so that the cycles of
 * several processes overlap. Runs until the parent sends 'stop', then reports and exits.
 */
import { awsClients } from '../../../functions/adapters/aws-context';
import { readEnvironment } from '../../../functions/environment';
import { loadLocalFunctions } from '../../../functions/local/local-functions';
import { DynamoStreamPoller } from '../../../functions/local/stream-poller';
import { READS_STREAM } from './cycle-workers';
import type { CycleReport } from '../../../lib/controllers/schedule-cycle';

export interface WorkerReport {
  readonly kind: 'stopped';
  readonly cycles: number;
  readonly scheduled: number;
  readonly errors: readonly string[];
}

const errors: string[] = [];
const record = (error: unknown) => errors.push((error as Error).stack ?? String(error));
// The table was filled with a state the controllers had settled (seed.ts): the stream is read from its end.
const functions = await loadLocalFunctions(awsClients(), readEnvironment().resources, undefined, record, { streamStart: 'LATEST' });
// The stack has one event source mapping on the objects table's stream, which Lambda reads a shard at a
// time: one process reads it; every process polls the queues.
const pollers = functions.pollers.filter((poller) => process.env[READS_STREAM] === '1' || !(poller instanceof DynamoStreamPoller));

let stopping = false;
process.on('message', (message) => {
  if (message === 'stop') stopping = true;
});
process.send?.({ kind: 'ready' });

let cycles = 0;
let scheduled = 0;
while (!stopping) {
  let handled = 0;
  for (const poller of pollers) handled += await poller.pollOnce(0).catch((error) => (record(error), 0));
  try {
    const report = (await functions.scheduleCycle()) as CycleReport;
    cycles += 1;
    scheduled += report.scheduled;
    handled += report.scheduled + report.unschedulable + report.skipped + report.failed;
  } catch (error) {
    // Told apart from the pollers' handlers, whose failures reach `record` through loadLocalFunctions.
    errors.push(`schedule-cycle: ${(error as Error).stack ?? String(error)}`);
  }
  // Idle: wait a little rather than hammer the endpoint the other processes are using.
  if (handled === 0) await new Promise((resolve) => setTimeout(resolve, 300));
}
const report: WorkerReport = { kind: 'stopped', cycles, scheduled, errors };
// The SDK clients keep connections open: leave at once rather than wait for them to time out.
process.send?.(report, () => process.exit(0));
