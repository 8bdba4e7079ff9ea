import { Command, Option } from 'commander';
import { stringify } from 'yaml';
import type { ResourceBinding } from '../../lib/api/resource-binding';
import type { ClusterAllocation } from '../../lib/controllers/allocations';
import type { TableContext } from '../../lib/format/columns';
import { findResource, type ServedResource } from '../../lib/http/served-resources';
import { resourcePath, type ApiClient } from '../client/api-client';
import { CliError } from '../client/cli-error';
import { resolveKind } from '../client/kind-aliases';
import type { CommandContext } from './context';
import type { ApiObject } from './object-actions';
import { connect, namespaceOption, serverOption, type ServerOptions } from './options';
import { renderObjects } from './printers';

const CLUSTERS = findResource('cluster.karmada.io', 'v1alpha1', 'clusters');
const ALLOCATIONS = findResource('scheduling.outrank.io', 'v1alpha1', 'clusterallocations')!;
const DEPLOYMENTS = findResource('apps', 'v1', 'deployments');
const BINDINGS = findResource('work.karmada.io', 'v1alpha2', 'resourcebindings')!;

interface GetOptions extends ServerOptions {
  readonly namespace: string;
  readonly allNamespaces?: boolean;
  readonly output?: 'json' | 'yaml' | 'wide';
  readonly selector?: string;
}

/** One object by name, else the List of the collection; `found` is what the server answered. */
async function read(client: ApiClient, resource: ServedResource, namespace: string | undefined, name: string | undefined, selector: string | undefined) {
  if (name !== undefined) {
    const object = await client.get<ApiObject>(resourcePath(resource, namespace, name));
    return { found: object, items: [object] };
  }
  const list = await client.list<ApiObject>(resourcePath(resource, namespace), { labelSelector: selector });
  return { found: list, items: list.items };
}

/**
 * The time of the ages; for clusters what outrank placed on each (one more read: the ClusterAllocations);
 * for Deployments their bindings (one more read of the same scope: the bindings there).
 */
async function tableContext(client: ApiClient, resource: ServedResource, namespace: string | undefined): Promise<TableContext> {
  const now = Date.now();
  if (resource === DEPLOYMENTS) {
    const bindings = await client.list<ResourceBinding>(resourcePath(BINDINGS, namespace));
    const ofDeployments = bindings.items.filter((binding) => binding.spec.resource.kind === 'Deployment' && binding.spec.resource.apiVersion === 'apps/v1');
    return { now, bindings: new Map(ofDeployments.map((binding) => [`${binding.spec.resource.namespace ?? ''}/${binding.spec.resource.name}`, binding])) };
  }
  if (resource !== CLUSTERS) return { now };
  const allocations = await client.list<ClusterAllocation>(resourcePath(ALLOCATIONS, undefined));
  return { now, placed: new Map(allocations.items.map((allocation) => [allocation.metadata.name, allocation.spec.placed])) };
}

/** The object, or the List the server answered with, as kubectl -o json|yaml prints them. */
function document(value: unknown, format: 'json' | 'yaml'): string {
  return format === 'json' ? JSON.stringify(value, null, 2) : stringify(value).trimEnd();
}

export function getCommand(context: CommandContext): Command {
  return new Command('get')
    .description('list objects of a kind as a table (bindings, clusters, pc, pp, cpp, deploy, events, ...), or one by name')
    .argument('<kind>', 'kind, plural or short name')
    .argument('[name]', 'name of one object')
    .addOption(namespaceOption())
    .option('-A, --all-namespaces', 'list across all namespaces')
    .addOption(new Option('-o, --output <format>', 'output format (a table when not given)').choices(['json', 'yaml', 'wide']))
    .option('-l, --selector <selector>', 'label selector, e.g. app=web,tier!=cache')
    .addOption(serverOption())
    .action(async (kind: string, name: string | undefined, options: GetOptions) => {
      const resource = resolveKind(kind);
      if (name !== undefined && options.allNamespaces) throw new CliError('error: a resource cannot be retrieved by name across all namespaces');
      if (name !== undefined && options.selector !== undefined) throw new CliError('error: name cannot be provided when a selector is specified');
      const client = connect(options);
      const namespaced = resource.info.namespaced;
      const namespace = namespaced && !options.allNamespaces ? options.namespace : undefined;

      const { found, items } = await read(client, resource, namespace, name, options.selector);
      if (options.output === 'json' || options.output === 'yaml') {
        context.out(document(found, options.output));
      } else if (items.length === 0) {
        // On stderr, as kubectl prints it: a script reading the table gets nothing rather than a sentence.
        context.err(namespace === undefined ? 'No resources found' : `No resources found in ${namespace} namespace.`);
      } else {
        const table = { wide: options.output === 'wide', withNamespace: namespaced && options.allNamespaces === true, context: await tableContext(client, resource, namespace) };
        context.out(renderObjects(resource.info.kind, items, table));
      }
    });
}
