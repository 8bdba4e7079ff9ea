import { Informers } from '../cache/informers';
import { withConfig, type SchedulerConfig } from '../config';
import { BindingEnqueueController } from '../controllers/binding-enqueue';
import { forBatch, type ControllerContext } from '../controllers/context';
import type { BindingRequest, ObjectChange, QueuedBinding } from '../controllers/messages';
import { ObjectService } from '../controllers/object-service';
import { PolicyChangeController } from '../controllers/policy-change';
import { ReconcileController } from '../controllers/reconcile';
import { ScheduleCycleController } from '../controllers/schedule-cycle';
import { ManualClock } from '../memory/manual-clock';
import { MemoryEventLog } from '../memory/memory-event-log';
import { MemoryMessageQueue } from '../memory/memory-message-queue';
import { MemoryMetrics } from '../memory/memory-metrics';
import { streamChangesTo } from '../memory/memory-change-stream';
import { MemoryObjectStore } from '../memory/memory-store';
import { SequentialUids } from '../memory/sequential-uids';
import { backoffMs } from '../controllers/scheduling-need';
import type { MessageQueue } from '../ports/message-queue';
import type { ObjectStore } from '../ports/object-store';

const MAX_RECEIVES = 10;

/** The functions of the deployed system, each of which this one runs in process. */
export type FunctionName = 'api' | 'policy-change' | 'binding-enqueue' | 'schedule-cycle' | 'reconcile';

/** Past this many handled messages a run is taken to be looping, which is a bug, not a workload. */
const RUN_LIMIT = 1_000_000;

function queueWithDeadLetters<T>(name: string, clock: ManualClock): MemoryMessageQueue<T> {
  const deadLetters = new MemoryMessageQueue<unknown>(`${name}-dlq`, clock);
  return new MemoryMessageQueue<T>(name, clock, { maxReceiveCount: MAX_RECEIVES, deadLetterQueue: deadLetters });
}

/**
 * The whole system on in-memory ports and a virtual clock: the same controllers the Lambda handlers
 * wrap, driven the way the event source mappings drive them. `outrank simulate` and the tests use it.
 */
export class MemorySystem {
  readonly clock = new ManualClock();
  /** A fixed sequence, so that a simulation decides the same on every run. */
  readonly uids = new SequentialUids();
  readonly store = new MemoryObjectStore();
  readonly events = new MemoryEventLog(this.clock);
  readonly metrics = new MemoryMetrics();
  readonly policyChangeQueue = queueWithDeadLetters<ObjectChange>('policy-change', this.clock);
  readonly bindingEnqueueQueue = queueWithDeadLetters<BindingRequest>('binding-enqueue', this.clock);
  readonly bandQueues: ReadonlyMap<string, MemoryMessageQueue<QueuedBinding>>;
  readonly context: ControllerContext;
  readonly objects: ObjectService;
  readonly policyChange: PolicyChangeController;
  readonly bindingEnqueue: BindingEnqueueController;
  readonly scheduleCycle: ScheduleCycleController;
  readonly reconcile: ReconcileController;
  /** Errors handlers raised; their messages were retried after a backoff, as SQS would. */
  readonly handlerErrors: Error[] = [];

  /** Each function's context: the shared one, unless `storeFor` gave each function a store (and informers) of its own. */
  private readonly contexts: Readonly<Record<FunctionName, ControllerContext>>;

  /**
   * `storeFor` gives each function its own view of the store, as separate Lambda functions each have
   * their own clients and informers (benchmarks count each function's store calls through it).
   */
  constructor(config: SchedulerConfig = withConfig(), storeFor?: (fn: FunctionName, store: ObjectStore) => ObjectStore) {
    this.bandQueues = new Map(config.bands.map((band) => [band.name, queueWithDeadLetters<QueuedBinding>(`schedule-${band.name}`, this.clock)]));
    streamChangesTo(this.store, this.policyChangeQueue);
    this.context = {
      store: this.store,
      informers: new Informers(this.store, this.clock),
      clock: this.clock,
      uids: this.uids,
      events: this.events,
      metrics: this.metrics,
      config,
      queues: { policyChange: this.policyChangeQueue, bindingEnqueue: this.bindingEnqueueQueue, bands: this.bandQueues },
    };
    const contextOf = (fn: FunctionName): ControllerContext => {
      if (!storeFor) return this.context;
      const store = storeFor(fn, this.store);
      return { ...this.context, store, informers: new Informers(store, this.clock) };
    };
    this.contexts = {
      api: contextOf('api'),
      'policy-change': contextOf('policy-change'),
      'binding-enqueue': contextOf('binding-enqueue'),
      'schedule-cycle': contextOf('schedule-cycle'),
      reconcile: contextOf('reconcile'),
    };
    this.objects = new ObjectService(this.contexts.api);
    this.policyChange = new PolicyChangeController(this.contexts['policy-change']);
    this.bindingEnqueue = new BindingEnqueueController(this.contexts['binding-enqueue']);
    this.scheduleCycle = new ScheduleCycleController(this.contexts['schedule-cycle']);
    this.reconcile = new ReconcileController(this.contexts.reconcile);
  }

  /**
   * Delivers messages until no queue has a visible one: policy changes first, then binding requests,
   * then scheduling batches, so that everything queued together is ordered by priority. Messages
   * waiting for time (backoff, redelivery) do not keep it running. `betweenSteps`, awaited after each
   * message and each scheduling batch, may pause the run or end it by throwing (what-if.ts).
   */
  async runUntilIdle(betweenSteps: () => Promise<void> = async () => {}): Promise<void> {
    let handled = 0;
    for (;;) {
      const before = handled;
      handled += await this.drain(this.policyChangeQueue, this.contexts['policy-change'], betweenSteps, (context) => {
        const controller = new PolicyChangeController(context);
        return (change) => controller.handle(change);
      });
      handled += await this.drain(this.bindingEnqueueQueue, this.contexts['binding-enqueue'], betweenSteps, (context) => {
        const controller = new BindingEnqueueController(context);
        return (request) => controller.handle(request);
      });
      handled += (await this.scheduleCycle.runBatch()).length;
      await betweenSteps();
      if (handled === before) return;
      if (handled > RUN_LIMIT) throw new Error(`no quiescence after ${RUN_LIMIT} messages`);
    }
  }

  /** Moves the virtual clock on, then runs the reconcile as its schedule would. */
  async advance(milliseconds: number): Promise<void> {
    this.clock.advance(milliseconds);
    await this.reconcile.run();
  }

  /** As an event source mapping: batches of up to ten, each handled by a handler made for its batch. */
  private async drain<T>(
    queue: MessageQueue<T>,
    functionContext: ControllerContext,
    betweenSteps: () => Promise<void>,
    handlerFor: (context: ControllerContext) => (body: T) => Promise<void>,
  ): Promise<number> {
    let handled = 0;
    for (;;) {
      const deliveries = await queue.receive(10);
      if (deliveries.length === 0) return handled;
      const handle = handlerFor(forBatch(functionContext));
      for (const delivery of deliveries) {
        try {
          await handle(delivery.body);
          await queue.delete([delivery.receipt]);
        } catch (error) {
          // As with an SQS batch item failure: the message comes back after a backoff.
          this.handlerErrors.push(error as Error);
          await queue.retryAfter(delivery.receipt, backoffMs(this.context.config, delivery.receiveCount));
        }
        handled += 1;
        await betweenSteps();
      }
    }
  }
}
