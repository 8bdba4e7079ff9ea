import { Informers } from '../../../lib/cache/informers';
import { withConfig } from '../../../lib/config';
import { BindingEnqueueController } from '../../../lib/controllers/binding-enqueue';
import { listBindings } from '../../../lib/controllers/binding-requests';
import type { ControllerContext } from '../../../lib/controllers/context';
import type { BindingRequest, ObjectChange, QueuedBinding } from '../../../lib/controllers/messages';
import { ObjectService } from '../../../lib/controllers/object-service';
import { PolicyChangeController } from '../../../lib/controllers/policy-change';
import { ReconcileController } from '../../../lib/controllers/reconcile';
import { ScheduleCycleController } from '../../../lib/controllers/schedule-cycle';
import type { ClusterAllocation } from '../../../lib/controllers/allocations';
import type { SystemState } from '../../../lib/check/invariants';
import type { Cluster } from '../../../lib/api/cluster';
import { ManualClock } from '../../../lib/memory/manual-clock';
import { MemoryEventLog } from '../../../lib/memory/memory-event-log';
import { MemoryMessageQueue } from '../../../lib/memory/memory-message-queue';
import { MemoryMetrics } from '../../../lib/memory/memory-metrics';
import { streamChangesTo } from '../../../lib/memory/memory-change-stream';
import { MemoryObjectStore } from '../../../lib/memory/memory-store';
import { SequentialUids } from '../../../lib/memory/sequential-uids';
import type { FaultPlan } from './fault-plan';

/** Visibility timeout of every queue; longer than the longest backoff (10 s), so one wait lets everything come back. */
const VISIBILITY_MS = 10_000;
const MAX_RECEIVES = 10;

function queue<T>(name: string, clock: ManualClock): MemoryMessageQueue<T> {
  const deadLetters = new MemoryMessageQueue<unknown>(`${name}-dlq`, clock);
  return new MemoryMessageQueue<T>(name, clock, { visibilityTimeoutMs: VISIBILITY_MS, maxReceiveCount: MAX_RECEIVES, deadLetterQueue: deadLetters });
}

/**
 * The system on in-memory ports, with every port call of the functions going through a FaultPlan,
 * driven as Lambda drives the functions: the event source mappings (whose own receives and deletes
 * are not the functions' calls) hand batches to policy-change and binding-enqueue; schedule-cycle
 * and reconcile are started by their schedules. A crashed invocation leaves its messages to come back
 * after their visibility timeout; a failed message fails alone, as with partial batch responses.
 */
export class FaultyMemorySystem {
  readonly clock = new ManualClock();
  readonly store = new MemoryObjectStore();
  readonly events = new MemoryEventLog(this.clock);
  private readonly policyChangeQueue = queue<ObjectChange>('policy-change', this.clock);
  private readonly bindingEnqueueQueue = queue<BindingRequest>('binding-enqueue', this.clock);
  private readonly bandQueues: ReadonlyMap<string, MemoryMessageQueue<QueuedBinding>>;
  private readonly context: ControllerContext;
  /** Errors the functions ended with, crashes included. */
  readonly errors: Error[] = [];

  constructor(private readonly plan: FaultPlan) {
    const config = withConfig();
    this.bandQueues = new Map(config.bands.map((band) => [band.name, queue<QueuedBinding>(`schedule-${band.name}`, this.clock)]));
    // As the table's stream: no fault between a write and its announcement.
    streamChangesTo(this.store, this.policyChangeQueue);
    const store = plan.wrapPort(this.store);
    this.context = {
      store,
      informers: new Informers(store, this.clock),
      events: plan.wrapPort(this.events),
      queues: {
        policyChange: plan.wrapPort(this.policyChangeQueue),
        bindingEnqueue: plan.wrapPort(this.bindingEnqueueQueue),
        bands: new Map([...this.bandQueues].map(([band, q]) => [band, plan.wrapPort(q)])),
      },
      clock: this.clock,
      uids: new SequentialUids(),
      metrics: new MemoryMetrics(),
      config,
    };
  }

  /** As a client applies manifests: a request that failed is sent again until it is answered. */
  async apply(manifests: readonly unknown[]): Promise<void> {
    const objects = new ObjectService(this.context);
    for (const manifest of manifests) {
      for (let attempt = 1; !(await this.run('api', () => objects.apply(manifest))); attempt += 1) {
        if (attempt >= MAX_RECEIVES) throw new Error(`the API kept failing: ${this.errors.at(-1)?.message}`);
      }
    }
  }

  /** Runs the functions until no message is left, waiting out visibility timeouts and backoffs. */
  async settle(): Promise<void> {
    for (let rounds = 0; ; rounds += 1) {
      if (rounds > 1_000) throw new Error('no quiescence');
      const handled =
        (await this.deliver(this.policyChangeQueue, (change) => new PolicyChangeController(this.context).handle(change))) +
        (await this.deliver(this.bindingEnqueueQueue, (request) => new BindingEnqueueController(this.context).handle(request))) +
        (await this.scheduleCycle());
      if (handled > 0) continue;
      if (!this.holdsMessages()) return;
      this.clock.advance(VISIBILITY_MS);
    }
  }

  /** The reconcile, as its schedule starts it: how many bindings it queued, undefined when it failed. */
  async reconcile(): Promise<number | undefined> {
    let requeued: number | undefined;
    await this.run('reconcile', async () => {
      requeued = (await new ReconcileController(this.context).run()).requeued;
    });
    return requeued;
  }

  async state(): Promise<SystemState> {
    return {
      clusters: await this.store.list<Cluster>('cluster.karmada.io', 'Cluster'),
      bindings: await listBindings({ ...this.context, store: this.store }),
      allocations: await this.store.list<ClusterAllocation>('scheduling.outrank.io', 'ClusterAllocation'),
      events: await this.events.list(),
    };
  }

  private async run(functionName: string, work: () => Promise<unknown>): Promise<boolean> {
    try {
      await this.plan.invoke(functionName, work);
      return true;
    } catch (error) {
      this.errors.push(error as Error);
      return false;
    }
  }

  /** One batch for a queue-triggered function; returns how many messages it was given. */
  private async deliver<T>(source: MemoryMessageQueue<T>, handle: (body: T) => Promise<void>): Promise<number> {
    const deliveries = await source.receive(10);
    const done: string[] = [];
    const completed = await this.run(source.name, async () => {
      for (const delivery of deliveries) {
        try {
          await handle(delivery.body);
          done.push(delivery.receipt);
        } catch (error) {
          this.errors.push(error as Error);
        }
      }
    });
    // A crashed invocation deletes nothing: the whole batch comes back.
    if (completed) await source.delete(done);
    return deliveries.length;
  }

  private async scheduleCycle(): Promise<number> {
    let handled = 0;
    const completed = await this.run('schedule-cycle', async () => {
      const report = await new ScheduleCycleController(this.context).run();
      handled = report.scheduled + report.unschedulable + report.skipped + report.failed;
    });
    return completed ? handled : 1;
  }

  private holdsMessages(): boolean {
    return [this.policyChangeQueue, this.bindingEnqueueQueue, ...this.bandQueues.values()].some((q) => q.held() > 0);
  }
}
