import { timestampOf } from '../ports/clock';
import { clusterRef, type Cluster } from '../api/cluster';
import {
  bindingPriority,
  CONDITION_SCHEDULING_SUSPENDED,
  findCondition,
  isSuspended,
  withCondition,
  type ResourceBinding,
} from '../api/resource-binding';
import { isScheduledBy } from '../api/scheduler-name';
import { bandFor } from '../config';
import type { ControllerContext } from './context';
import { bindingRefOf } from './binding-references';
import { bindingGroupId, bindingMessageId, wokenForField } from './messages';
import { recordNeed, schedulingNeed, type NeedingController } from './scheduling-need';

/**
 * What binding-enqueue does with a binding as stored now: reflects its scheduling suspension in its
 * conditions (scheduling suspension (003)) and, when it needs scheduling, queues it in the band of its
 * priority (binding priority and preemption (000)). It reads only the clusters the binding is placed on.
 * Another scheduler's binding (scheduler-name.ts) is neither touched nor queued.
 * A controller that has just written the binding calls it directly, rather than asking binding-enqueue
 * to read the binding again; `decidedBy` names it in the SchedulingNeeds metric.
 */
export async function enqueueInBand(
  context: ControllerContext,
  binding: ResourceBinding,
  decidedBy: NeedingController,
  cause?: string,
  wokenFor?: readonly string[],
): Promise<void> {
  const { schedulerNames } = context.config;
  if (!isScheduledBy(schedulerNames, binding)) {
    recordNeed(context.metrics, decidedBy, 'OtherScheduler');
    return;
  }
  const current = await reflectSuspension(context, binding);
  const clusters = await placedClustersOf(context, current);
  const need = schedulingNeed(current, (name) => clusters.get(name), context.clock.now(), schedulerNames);
  recordNeed(context.metrics, decidedBy, need.reason);
  if (!need.needed) return;

  const priority = bindingPriority(current);
  const band = bandFor(context.config, priority);
  const queue = context.queues.bands.get(band.name);
  if (!queue) throw new Error(`no queue for priority band ${band.name}`);
  const ref = bindingRefOf(current);
  await queue.send([
    {
      body: { binding: ref, priority, enqueuedAt: context.clock.now(), ...wokenForField(wokenFor) },
      groupId: bindingGroupId(ref),
      deduplicationId: bindingMessageId(ref, current.metadata.resourceVersion ?? '0', cause),
    },
  ]);
}

/** The clusters the binding is placed on that exist, by name, read afresh in one request. */
async function placedClustersOf(context: ControllerContext, binding: ResourceBinding): Promise<Map<string, Cluster>> {
  const targets = binding.spec.clusters ?? [];
  if (targets.length === 0) return new Map();
  const clusters = await context.store.getMany<Cluster>(targets.map((target) => clusterRef(target.name)));
  return new Map(clusters.filter((cluster): cluster is Cluster => cluster !== undefined).map((cluster) => [cluster.metadata.name, cluster]));
}

async function reflectSuspension(context: ControllerContext, binding: ResourceBinding): Promise<ResourceBinding> {
  const suspended = isSuspended(binding);
  const current = findCondition(binding, CONDITION_SCHEDULING_SUSPENDED);
  if (current === undefined && !suspended) return binding;
  if (current?.status === (suspended ? 'True' : 'False')) return binding;
  const now = timestampOf(context.clock);
  const conditions = withCondition(binding.status?.conditions, {
    type: CONDITION_SCHEDULING_SUSPENDED,
    status: suspended ? 'True' : 'False',
    reason: suspended ? 'SchedulingSuspended' : 'SchedulingResumed',
    message: suspended ? 'spec.suspension.scheduling is true: the scheduler leaves this binding alone' : 'scheduling resumed',
    lastTransitionTime: now,
  });
  const updated: ResourceBinding = { ...binding, status: { ...binding.status, conditions } };
  const [written] = await context.store.transact([{ op: 'put', object: updated, expectedVersion: binding.metadata.resourceVersion ?? null }]);
  return written as ResourceBinding;
}
