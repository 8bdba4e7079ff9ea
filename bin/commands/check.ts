import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { parseSettings } from '../../functions/environment';
import type { Cluster } from '../../lib/api/cluster';
import type { KubeEvent } from '../../lib/api/event';
import {
  CLUSTER,
  CLUSTER_ALLOCATION,
  CLUSTER_PROPAGATION_POLICY,
  CLUSTER_RESOURCE_BINDING,
  EVENT,
  PRIORITY_CLASS,
  PROPAGATION_POLICY,
  RESOURCE_BINDING,
  TEMPLATE_KINDS,
} from '../../lib/api/kinds';
import type { PriorityClass } from '../../lib/api/priority-class';
import type { AnyPropagationPolicy } from '../../lib/api/propagation-policy';
import type { ResourceBinding } from '../../lib/api/resource-binding';
import type { ResourceTemplate } from '../../lib/api/resource-template';
import { checkInvariants, type InvariantReport, type Violation } from '../../lib/check/invariants';
import { checkLostWork, defaultMaxWaitMs, type LostWorkOptions, type LostWorkRule, type WorkState } from '../../lib/check/lost-work';
import type { ClusterAllocation } from '../../lib/controllers/allocations';
import { renderTable } from '../../lib/format/table';
import { QUEUE_STATUS_PATH, type QueueStatusList } from '../../lib/http/queue-status';
import { isNotFound, type ApiClient } from '../client/api-client';
import { listAll } from '../client/list-all';
import type { CommandContext } from './context';
import { connect, parseDuration, serverOption, type ServerOptions } from './options';

interface CheckOptions extends ServerOptions {
  readonly output: 'table' | 'json';
  readonly settings?: string;
  readonly maxWait?: number;
  readonly only?: 'invariants' | 'lost-work';
}

/** The invariants' report with the lost-work rules' violations and the dead-letter queues' depths. */
interface CheckReport extends Omit<InvariantReport, 'violations'> {
  readonly violations: ReadonlyArray<Violation<InvariantReport['violations'][number]['rule'] | LostWorkRule>>;
  readonly deadLettered: Readonly<Record<string, number>>;
}

/** Messages in each queue's dead-letter queue; none known when the server reports no queues. */
async function deadLettered(client: ApiClient): Promise<Array<{ queue: string; messages: number }>> {
  try {
    const status = await client.get<QueueStatusList>(QUEUE_STATUS_PATH);
    return status.items.map((item) => ({ queue: item.name, messages: item.deadLettered }));
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
}

/** The lost-work rules, with the templates and what claims them read besides. */
async function lostWork(client: ApiClient, read: Pick<WorkState, 'clusters' | 'bindings' | 'deadLettered'>, options: LostWorkOptions): Promise<Violation<LostWorkRule>[]> {
  const [policies, clusterPolicies, priorityClasses, templates] = await Promise.all([
    listAll<AnyPropagationPolicy>(client, PROPAGATION_POLICY),
    listAll<AnyPropagationPolicy>(client, CLUSTER_PROPAGATION_POLICY),
    listAll<PriorityClass>(client, PRIORITY_CLASS),
    Promise.all(TEMPLATE_KINDS.map((kind) => listAll<ResourceTemplate>(client, kind))),
  ]);
  return checkLostWork({ ...read, templates: templates.flat(), policies: [...policies, ...clusterPolicies], priorityClasses }, options);
}

function formatReport(report: CheckReport): string {
  const { summary } = report;
  const dead = Object.values(report.deadLettered).reduce((sum, messages) => sum + messages, 0);
  const head =
    `${summary.clusters} clusters, ${summary.bindings} bindings: ${summary.placed} placed, ${summary.pending} pending, ` +
    `${summary.suspended} suspended; ${summary.preemptions} preemptions; ${dead} dead-lettered messages`;
  if (report.ok) return `${head}\nNo violations.`;
  const rows = report.violations.map((v) => [v.rule, v.object, v.message]);
  return `${head}\n${report.violations.length} violation(s):\n${renderTable(['RULE', 'OBJECT', 'MESSAGE'], rows)}`;
}

export function checkCommand(context: CommandContext): Command {
  return new Command('check')
    .description(
      'check what must always hold on the live system: no cluster over capacity, every binding placed or pending with a reason, ' +
        'allocations equal to the placed bindings, no victim of equal or higher priority or non-preemptible; and that no work was lost: ' +
        'every claimed template has its binding as its spec and policy make it, no binding waits longer than the unschedulable flush ' +
        'without an attempt, no dead-lettered message (exit code 0 when all hold, 1 on a violation or an error)',
    )
    .addOption(new Option('-o, --output <format>', 'output format').choices(['table', 'json']).default('table'))
    .addOption(new Option('--settings <file>', 'the settings the functions run with (OUTRANK_SETTINGS as a file), to judge claims by; default: OUTRANK_SETTINGS, else the defaults'))
    .addOption(new Option('--max-wait <duration>', 'the longest a binding may wait for an attempt (default: the unschedulable flush plus a minute)').argParser(parseDuration))
    .addOption(new Option('--only <rules>', 'check only the invariants (safety) or only for lost work').choices(['invariants', 'lost-work']))
    .addOption(serverOption())
    .action(async (options: CheckOptions) => {
      const client = connect(options);
      const { config } = parseSettings(options.settings ? readFileSync(options.settings, 'utf8') : process.env.OUTRANK_SETTINGS);
      const [clusters, namespaced, clusterScoped, allocations, events, queues] = await Promise.all([
        listAll<Cluster>(client, CLUSTER),
        listAll<ResourceBinding>(client, RESOURCE_BINDING),
        listAll<ResourceBinding>(client, CLUSTER_RESOURCE_BINDING),
        listAll<ClusterAllocation>(client, CLUSTER_ALLOCATION),
        // The invariants judge preemptions only; the event log reads those from its index.
        listAll<KubeEvent>(client, EVENT, 'reason=Preempted'),
        deadLettered(client),
      ]);
      const bindings = [...namespaced, ...clusterScoped];
      const now = client.serverTime ?? Date.now();
      const invariants = checkInvariants({ clusters, bindings, allocations, events }, config.schedulerNames);
      const lost = options.only === 'invariants' ? [] : await lostWork(client, { clusters, bindings, deadLettered: queues }, { now, config, maxWaitMs: options.maxWait ?? defaultMaxWaitMs(config) });
      const violations = [...(options.only === 'lost-work' ? [] : invariants.violations), ...lost];
      const report: CheckReport = {
        ...invariants,
        ok: violations.length === 0,
        violations,
        deadLettered: Object.fromEntries(queues.map(({ queue, messages }) => [queue, messages])),
      };
      context.out(options.output === 'json' ? JSON.stringify(report, null, 2) : formatReport(report));
      if (!report.ok) context.failed = true;
    });
}
