import { withConfig, type SchedulerConfig } from '../config';
import { BindingEnqueueController } from '../controllers/binding-enqueue';
import type { ControllerContext } from '../controllers/context';
import type { BindingRequest, ObjectChange, QueuedBinding } from '../controllers/messages';
import { ObjectService } from '../controllers/object-service';
import { PolicyChangeController } from '../controllers/policy-change';
import { ReconcileController } from '../controllers/reconcile';
import { ScheduleCycleController } from '../controllers/schedule-cycle';
import { ManualClock } from '../memory/manual-clock';
import { MemoryEventLog } from '../memory/memory-event-log';
import { MemoryMessageQueue } from '../memory/memory-message-queue';
import { MemoryMetrics } from '../memory/memory-metrics';
import { MemoryObjectStore } from '../memory/memory-store';
import { backoffMs } from '../config';
import type { MessageQueue } from '../ports/message-queue';

const MAX_RECEIVES = 10;

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

  constructor(config: SchedulerConfig = withConfig()) {
    this.bandQueues = new Map(config.bands.map((band) => [band.name, queueWithDeadLetters<QueuedBinding>(`schedule-${band.name}`, this.clock)]));
    this.context = {
      store: this.store,
      clock: this.clock,
      events: this.events,
      metrics: this.metrics,
      config,
      queues: { policyChange: this.policyChangeQueue, bindingEnqueue: this.bindingEnqueueQueue, bands: this.bandQueues },
    };
    this.objects = new ObjectService(this.context);
    this.policyChange = new PolicyChangeController(this.context);
    this.bindingEnqueue = new BindingEnqueueController(this.context);
    this.scheduleCycle = new ScheduleCycleController(this.context);
    this.reconcile = new ReconcileController(this.context);
  }

  /**
   * Delivers messages until no queue has a visible one: policy changes first, then binding requests,
   * then scheduling batches, so that everything queued together is ordered by priority. Messages
   * waiting for time (backoff, redelivery) do not keep it running.
   */
  async runUntilIdle(): Promise<void> {
    let handled = 0;
    for (;;) {
      const before = handled;
      handled += await this.drain(this.policyChangeQueue, (change) => this.policyChange.handle(change));
      handled += await this.drain(this.bindingEnqueueQueue, (request) => this.bindingEnqueue.handle(request));
      handled += (await this.scheduleCycle.runBatch()).length;
      if (handled === before) return;
      if (handled > RUN_LIMIT) throw new Error(`no quiescence after ${RUN_LIMIT} messages`);
    }
  }

  /** Moves the virtual clock on, then runs the reconcile as its schedule would. */
  async advance(milliseconds: number): Promise<void> {
    this.clock.advance(milliseconds);
    await this.reconcile.run();
  }

  private async drain<T>(queue: MessageQueue<T>, handle: (body: T) => Promise<void>): Promise<number> {
    let handled = 0;
    for (;;) {
      const deliveries = await queue.receive(10);
      if (deliveries.length === 0) return handled;
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
      }
    }
  }
}
