import { Command, Option } from 'commander';
import { stringify } from 'yaml';
import { formatSimulation } from '../../lib/simulate/format-result';
import { runScenario, type SimulationResult } from '../../lib/simulate/run-scenario';
import type { CommandContext } from './context';
import { readSimulationInput } from './input';

export function simulateCommand(context: CommandContext): Command {
  return new Command('simulate')
    .description('run a scenario, or manifests as one step, on the in-memory scheduler and print the resulting bindings')
    .requiredOption('-f, --filename <file>', 'scenario or manifests (YAML or JSON, "-" for standard input)')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['table', 'json', 'yaml']).default('table'))
    .option('--allow-rejections', 'exit 0 even when the API refused a write of a step (for scenarios that show a refusal)')
    .option('-w, --watch', 'print each decision (event) as it happens, on standard error, before the result')
    .action(async (options: { filename: string; output: 'table' | 'json' | 'yaml'; allowRejections?: boolean; watch?: boolean }) => {
      const scenario = await readSimulationInput(options.filename);
      const onEvent = (step: number, event: SimulationResult['events'][number]) => {
        const object = `${event.object.kind}/${event.object.namespace ? `${event.object.namespace}/` : ''}${event.object.name}`;
        context.err(`step ${step}  ${event.type}  ${event.reason}  ${object}: ${event.message}`);
      };
      const result = await runScenario(scenario, options.watch ? { onEvent } : {});
      const text =
        options.output === 'json' ? JSON.stringify(result, null, 2) : options.output === 'yaml' ? stringify(result) : formatSimulation(result);
      context.out(text);
      // As outrank apply of the same scenario would: a refused write fails the command.
      if (result.rejections.length > 0 && !options.allowRejections) {
        const steps = [...new Set(result.rejections.map((r) => r.step))].join(', ');
        context.err(`error: ${result.rejections.length} write(s) refused (step ${steps}); pass --allow-rejections if the scenario expects them`);
        context.failed = true;
      }
    });
}
