import { Command, Option } from 'commander';
import type { Cluster } from '../../lib/api/cluster';
import type { KubeEvent } from '../../lib/api/event';
import { CLUSTER, CLUSTER_ALLOCATION, CLUSTER_RESOURCE_BINDING, EVENT, RESOURCE_BINDING } from '../../lib/api/kinds';
import type { ResourceBinding } from '../../lib/api/resource-binding';
import { checkInvariants, type InvariantReport } from '../../lib/check/invariants';
import type { ClusterAllocation } from '../../lib/controllers/allocations';
import { renderTable } from '../../lib/format/table';
import { listAll } from '../client/list-all';
import type { CommandContext } from './context';
import { connect, serverOption, type ServerOptions } from './options';

interface CheckOptions extends ServerOptions {
  readonly output: 'table' | 'json';
}

function formatReport(report: InvariantReport): string {
  const { summary } = report;
  const head =
    `${summary.clusters} clusters, ${summary.bindings} bindings: ${summary.placed} placed, ${summary.pending} pending, ` +
    `${summary.suspended} suspended; ${summary.preemptions} preemptions`;
  if (report.ok) return `${head}\nNo violations.`;
  const rows = report.violations.map((v) => [v.rule, v.object, v.message]);
  return `${head}\n${report.violations.length} violation(s):\n${renderTable(['RULE', 'OBJECT', 'MESSAGE'], rows)}`;
}

export function checkCommand(context: CommandContext): Command {
  return new Command('check')
    .description(
      'check what must always hold on the live system: no cluster over capacity, every binding placed or pending with a reason, ' +
        'allocations equal to the placed bindings, no victim of equal or higher priority or non-preemptible (exit code 1 on a violation)',
    )
    .addOption(new Option('-o, --output <format>', 'output format').choices(['table', 'json']).default('table'))
    .addOption(serverOption())
    .action(async (options: CheckOptions) => {
      const client = connect(options);
      const [clusters, namespaced, clusterScoped, allocations, events] = await Promise.all([
        listAll<Cluster>(client, CLUSTER),
        listAll<ResourceBinding>(client, RESOURCE_BINDING),
        listAll<ResourceBinding>(client, CLUSTER_RESOURCE_BINDING),
        listAll<ClusterAllocation>(client, CLUSTER_ALLOCATION),
        listAll<KubeEvent>(client, EVENT),
      ]);
      const report = checkInvariants({ clusters, bindings: [...namespaced, ...clusterScoped], allocations, events });
      context.out(options.output === 'json' ? JSON.stringify(report, null, 2) : formatReport(report));
      if (!report.ok) context.failed = true;
    });
}
