import { Command } from 'commander';
import { EVENT } from '../../lib/api/kinds';
import type { KubeEvent } from '../../lib/api/event';
import { resourcePath } from '../client/api-client';
import { resolveKind, resourceOf } from '../client/kind-aliases';
import type { CommandContext } from './context';
import { describeText } from './describe-text';
import type { ApiObject } from './object-actions';
import { connect, namespaceOption, serverOption, type ServerOptions } from './options';

interface DescribeOptions extends ServerOptions {
  readonly namespace: string;
}

const EVENTS = resourceOf(EVENT.apiVersion, EVENT.kind)!;

/**
 * The events of one object, selected as kubectl describe selects them. Events of a cluster-scoped
 * object are recorded in some namespace of the server's choosing, so they are looked for in all.
 */
function eventsPath(object: ApiObject): { path: string; fieldSelector: string } {
  const { name, namespace } = object.metadata;
  const terms = [`involvedObject.name=${name}`, `involvedObject.kind=${object.kind}`, ...(namespace ? [`involvedObject.namespace=${namespace}`] : [])];
  return { path: resourcePath(EVENTS, namespace), fieldSelector: terms.join(',') };
}

export function describeCommand(context: CommandContext): Command {
  return new Command('describe')
    .description('show one object in detail, with its events')
    .argument('<kind>', 'kind, plural or short name')
    .argument('<name>', 'name of the object')
    .addOption(namespaceOption())
    .addOption(serverOption())
    .action(async (kind: string, name: string, options: DescribeOptions) => {
      const resource = resolveKind(kind);
      const client = connect(options);
      const object = await client.get<ApiObject>(resourcePath(resource, resource.info.namespaced ? options.namespace : undefined, name));
      const { path, fieldSelector } = eventsPath(object);
      const events = await client.list<KubeEvent>(path, { fieldSelector });
      context.out(describeText(object, events.items, Date.now()));
    });
}
