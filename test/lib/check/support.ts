import type { Cluster } from '../../../lib/api/cluster';
import { CLUSTER_PROPAGATION_POLICY, PROPAGATION_POLICY, TEMPLATE_KINDS } from '../../../lib/api/kinds';
import type { PriorityClass } from '../../../lib/api/priority-class';
import type { AnyPropagationPolicy } from '../../../lib/api/propagation-policy';
import { apiGroupOf, type ResourceTemplate } from '../../../lib/api/resource-template';
import { checkInvariants, type Violation } from '../../../lib/check/invariants';
import { checkLostWork, defaultMaxWaitMs, type LostWorkRule } from '../../../lib/check/lost-work';
import type { ClusterAllocation } from '../../../lib/controllers/allocations';
import { listBindings } from '../../../lib/controllers/binding-requests';
import type { MemorySystem } from '../../../lib/runtime/memory-system';

/** What `outrank check` reports of a memory system: its invariants and the lost-work rules, dead-letter queues included. */
export async function outrankCheck(system: MemorySystem): Promise<Violation<string>[]> {
  const { store } = system;
  const [clusters, bindings, allocations, events, policies, clusterPolicies, priorityClasses, templates] = await Promise.all([
    store.list<Cluster>('cluster.karmada.io', 'Cluster'),
    listBindings(system.context),
    store.list<ClusterAllocation>('scheduling.outrank.io', 'ClusterAllocation'),
    system.events.list(),
    store.list<AnyPropagationPolicy>(apiGroupOf(PROPAGATION_POLICY.apiVersion), PROPAGATION_POLICY.kind),
    store.list<AnyPropagationPolicy>(apiGroupOf(CLUSTER_PROPAGATION_POLICY.apiVersion), CLUSTER_PROPAGATION_POLICY.kind),
    store.list<PriorityClass>('scheduling.k8s.io', 'PriorityClass'),
    Promise.all(TEMPLATE_KINDS.map((kind) => store.list<ResourceTemplate>(apiGroupOf(kind.apiVersion), kind.kind))),
  ]);
  const queues = [system.policyChangeQueue, system.bindingEnqueueQueue, ...system.bandQueues.values()];
  const deadLettered = await Promise.all(queues.map(async (queue) => ({ queue: queue.name, messages: await queue.deadLettered() })));
  const lostWork: Violation<LostWorkRule>[] = checkLostWork(
    { templates: templates.flat(), policies: [...policies, ...clusterPolicies], priorityClasses, clusters, bindings, deadLettered },
    { now: system.clock.now(), config: system.context.config, maxWaitMs: defaultMaxWaitMs(system.context.config) },
  );
  return [...checkInvariants({ clusters, bindings, allocations, events }).violations, ...lostWork];
}
