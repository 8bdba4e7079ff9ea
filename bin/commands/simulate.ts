import { Command, Option } from 'commander';
import { stringify } from 'yaml';
import { formatSimulation } from '../../lib/simulate/format-result';
import { loadScenario } from '../../lib/simulate/load-scenario';
import { runScenario } from '../../lib/simulate/run-scenario';
import type { CommandContext } from './context';
import { readInput } from './input';

export function simulateCommand(context: CommandContext): Command {
  return new Command('simulate')
    .description('run a what-if scenario on the in-memory scheduler and print the resulting bindings')
    .requiredOption('-f, --filename <file>', 'scenario file (YAML or JSON, "-" for standard input)')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['table', 'json', 'yaml']).default('table'))
    .action(async (options: { filename: string; output: 'table' | 'json' | 'yaml' }) => {
      const scenario = loadScenario(await readInput(options.filename));
      const result = await runScenario(scenario);
      const text =
        options.output === 'json' ? JSON.stringify(result, null, 2) : options.output === 'yaml' ? stringify(result) : formatSimulation(result);
      context.out(text);
    });
}
