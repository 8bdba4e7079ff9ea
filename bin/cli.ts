import { readFile } from 'node:fs/promises';
import { Command, Option } from 'commander';
import { stringify } from 'yaml';
import { formatSimulation } from '../lib/simulate/format-result';
import { loadScenario, ScenarioError } from '../lib/simulate/load-scenario';
import { runScenario } from '../lib/simulate/run-scenario';

async function readInput(file: string): Promise<string> {
  if (file === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }
  return readFile(file, 'utf8');
}

const program = new Command('outrank')
  .description('Priority-and-preemption scheduler for multi-cluster workload bindings')
  .showHelpAfterError();

program
  .command('simulate')
  .description('run a what-if scenario on the in-memory scheduler and print the resulting bindings')
  .requiredOption('-f, --filename <file>', 'scenario file (YAML or JSON, "-" for standard input)')
  .addOption(new Option('-o, --output <format>', 'output format').choices(['table', 'json', 'yaml']).default('table'))
  .action(async (options: { filename: string; output: 'table' | 'json' | 'yaml' }) => {
    const scenario = loadScenario(await readInput(options.filename));
    const result = await runScenario(scenario);
    const text =
      options.output === 'json' ? JSON.stringify(result, null, 2) : options.output === 'yaml' ? stringify(result) : formatSimulation(result);
    process.stdout.write(`${text}\n`);
  });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  const known = error instanceof ScenarioError || (error as NodeJS.ErrnoException).code === 'ENOENT';
  process.stderr.write(`error: ${(error as Error).message}\n`);
  if (!known) process.stderr.write(`${(error as Error).stack ?? ''}\n`);
  process.exitCode = 1;
}
