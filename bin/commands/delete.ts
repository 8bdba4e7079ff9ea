import { Command } from 'commander';
import { CliError, ObjectError } from '../client/cli-error';
import { resolveKind } from '../client/kind-aliases';
import type { CommandContext } from './context';
import { readApplyInput } from './input';
import { attempt, deleteObject, targetOf, type Source } from './object-actions';
import { connect, namespaceOption, serverOption, type ServerOptions } from './options';

interface DeleteOptions extends ServerOptions {
  readonly filename?: string;
  readonly namespace: string;
}

interface Named {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
}

function named(raw: unknown, file: string): Named {
  const object = (typeof raw === 'object' && raw !== null ? raw : {}) as { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } };
  const { apiVersion, kind } = object;
  const { name, namespace } = object.metadata ?? {};
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || typeof name !== 'string') {
    throw new ObjectError(`error: error validating "${file}": every object must set apiVersion, kind and metadata.name`);
  }
  return { apiVersion, kind, name, ...(typeof namespace === 'string' ? { namespace } : {}) };
}

/**
 * The objects a file creates. A scenario's are those its apply steps create, last first, so that
 * templates go before the policies and clusters they were placed with.
 */
async function objectsOf(file: string): Promise<unknown[]> {
  const input = await readApplyInput(file);
  return input.type === 'manifests' ? input.objects : input.scenario.steps.flatMap((s) => ('apply' in s ? s.apply : [])).reverse();
}

async function deleteFromFile(context: CommandContext, options: DeleteOptions & { filename: string }): Promise<void> {
  const client = connect(options);
  const source: Source = { file: options.filename, namespace: options.namespace };
  for (const raw of await objectsOf(options.filename)) {
    await attempt(context, () => {
      const object = named(raw, options.filename);
      return deleteObject(context, client, targetOf(object.apiVersion, object.kind, object.name, object.namespace, source), object.name);
    });
  }
}

export function deleteCommand(context: CommandContext): Command {
  return new Command('delete')
    .description('delete objects by kind and name, or those of a manifest or scenario file')
    .argument('[kind]', 'kind, plural or short name (pc, pp, cpp, deploy, ...)')
    .argument('[names...]', 'names of the objects')
    .option('-f, --filename <file>', 'manifests or a scenario whose objects to delete')
    .addOption(namespaceOption())
    .addOption(serverOption())
    .action(async (kind: string | undefined, names: string[], options: DeleteOptions) => {
      if (options.filename !== undefined) {
        if (kind !== undefined) throw new CliError('error: give either -f or a kind and names, not both');
        await deleteFromFile(context, { ...options, filename: options.filename });
        return;
      }
      if (kind === undefined || names.length === 0) throw new CliError('error: give a kind and the names of the objects to delete, or -f <file>');
      const resource = resolveKind(kind);
      const client = connect(options);
      const target = { resource, namespace: resource.info.namespaced ? options.namespace : undefined };
      for (const name of names) await attempt(context, () => deleteObject(context, client, target, name));
    });
}
