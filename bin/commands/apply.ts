import { Command, Option } from 'commander';
import { CliError } from '../client/cli-error';
import type { CommandContext } from './context';
import { readApplyInput } from './input';
import { applyObject, attempt } from './object-actions';
import { connect, namespaceOption, parseDuration, serverOption, type ServerOptions } from './options';
import { applyScenario } from './scenario-steps';

interface ApplyOptions extends ServerOptions {
  readonly filename: string;
  readonly namespace: string;
  readonly timeout: number;
}

export function applyCommand(context: CommandContext): Command {
  return new Command('apply')
    .description('create or update the objects of a manifest file, or run a scenario file\'s steps against the server')
    .requiredOption('-f, --filename <file>', 'manifests or a scenario (YAML or JSON, "-" for standard input)')
    .addOption(namespaceOption())
    .addOption(new Option('--timeout <duration>', 'how long each scenario step may take to settle').default(60_000, '60s').argParser(parseDuration))
    .addOption(serverOption())
    .action(async (options: ApplyOptions) => {
      const client = connect(options, context);
      const input = await readApplyInput(options.filename);
      const source = { file: options.filename, namespace: options.namespace };
      if (input.type === 'scenario') {
        await applyScenario(context, client, input.scenario, source, options.timeout);
        return;
      }
      if (input.objects.length === 0) throw new CliError('error: no objects passed to apply');
      for (const raw of input.objects) await attempt(context, () => applyObject(context, client, raw, source));
    });
}
