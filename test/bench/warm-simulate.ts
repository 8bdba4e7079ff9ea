/**
 * Runs one scenario several times in one process, each on a fresh in-memory system, and prints each
 * run's wall-clock and CPU milliseconds as a JSON line: the first run pays for V8 compiling the hot
 * paths, the later ones show what the simulation itself costs once they are compiled.
 *
 *   node --import tsx test/bench/warm-simulate.ts <scenario.json> <runs>
 */
import { readFileSync } from 'node:fs';
import { runScenario } from '../../lib/simulate/run-scenario';
import { scenarioSchema } from '../../lib/simulate/scenario';

const [file, runs = '3'] = process.argv.slice(2);
if (!file || !/^[1-9]\d*$/.test(runs)) throw new Error('usage: warm-simulate.ts <scenario.json> <runs, 1 or more>');
for (let run = 0; run < Number(runs); run++) {
  const scenario = scenarioSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await runScenario(scenario);
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if (result.errors.length > 0 || result.rejections.length > 0) {
    throw new Error(`the scenario should run clean: ${result.errors[0] ?? result.rejections[0]?.message}`);
  }
  console.log(JSON.stringify({ wallMs, cpuMs: (used.user + used.system) / 1000, bindings: result.bindings.length }));
}
