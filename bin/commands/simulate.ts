import { Command, Option } from 'commander';
import { stringify } from 'yaml';
import { objectName } from '../../lib/simulate/format-details';
import { formatSimulation } from '../../lib/simulate/format-result';
import { runScenario, type SimulatedEvent } from '../../lib/simulate/run-scenario';
import type { CommandContext } from './context';
import { readSimulationInput } from './input';
import { jsonChunks } from './json-chunks';

interface SimulateOptions {
  readonly filename: readonly string[];
  readonly output: 'table' | 'wide' | 'json' | 'yaml';
  readonly events?: boolean;
  readonly allowRejections?: boolean;
  readonly watch?: boolean;
}

export function simulateCommand(context: CommandContext): Command {
  return new Command('simulate')
    .description('run a scenario, or manifests as one step, on the in-memory scheduler and summarize what happened')
    .requiredOption('-f, --filename <file>', 'scenario, or manifests (a file or a directory; YAML or JSON, "-" for standard input); given again, each further manifests a step of its own', collectFiles, [])
    .addOption(
      new Option('-o, --output <format>', 'a summary (table), with every binding, cluster and preemption (wide), or all of it as data')
        .choices(['table', 'wide', 'json', 'yaml'])
        .default('table'),
    )
    .option('--events', 'with table or wide: every event, with its step and virtual time, before the summary')
    .option('--allow-rejections', 'exit 0 even when the API refused a write of a step (for scenarios that show a refusal)')
    .option('-w, --watch', 'print each decision (event) as it happens, on standard error, before the result')
    .action(async (options: SimulateOptions) => {
      const scenario = await readSimulationInput(options.filename);
      const onEvent = (step: number, event: SimulatedEvent) => {
        context.err(`step ${step}  ${event.type}  ${event.reason}  ${objectName(event.object)}: ${event.message}`);
      };
      const result = await runScenario(scenario, options.watch ? { onEvent } : {});
      if (options.output === 'json') context.outChunks(jsonChunks(result));
      else if (options.output === 'yaml') context.out(stringify(result));
      else context.out(formatSimulation(result, { wide: options.output === 'wide', events: options.events === true, description: scenario.description }));
      // As outrank apply of the same scenario would: a refused write fails the command.
      if (result.rejections.length > 0 && !options.allowRejections) {
        const steps = [...new Set(result.rejections.map((r) => r.step))].join(', ');
        context.err(`error: ${result.rejections.length} write(s) refused (step ${steps}); pass --allow-rejections if the scenario expects them`);
        context.failed = true;
      }
    });
}

/** Each -f adds one source, in the order given, as kubectl collects its -f flags. */
function collectFiles(file: string, files: readonly string[]): readonly string[] {
  return [...files, file];
}
