/**
 * A message for a FIFO queue: ordered within its group, dropped when its deduplication id was seen recently.
 * Ids may be of any length (a binding's are longer than SQS takes): an adapter whose service limits them
 * maps each to one that fits, keeping distinct ids distinct.
 */
export interface OutgoingMessage<T> {
  readonly body: T;
  readonly groupId: string;
  readonly deduplicationId: string;
}

export interface Delivery<T> {
  readonly body: T;
  /** Handle for delete and retry, valid until the message becomes visible again. */
  readonly receipt: string;
  /** 1 on the first delivery; grows with every redelivery (drives the backoff). */
  readonly receiveCount: number;
  /** When the message was first sent, in milliseconds since the epoch. */
  readonly sentAt: number;
}

/** How many messages a queue holds: ready for delivery, and received or waiting to be retried. */
export interface QueueDepth {
  readonly visible: number;
  readonly inFlight: number;
}

/** What the queue status (GET /outrank/v1/queues) reads of a queue: the work it holds, and the work given up on. */
export interface ObservedQueue {
  readonly name: string;
  /** Approximate, as SQS reports it; zero everywhere means no work is queued or in progress. */
  depth(): Promise<QueueDepth>;
  /** Messages given up on: those its dead-letter queue holds (zero when it has none), or, for a queue of failures, every message in it. */
  deadLettered(): Promise<number>;
}

/**
 * The queue port, with the semantics of an SQS FIFO queue: a received message stays invisible until
 * deleted or until its visibility timeout passes, then it is delivered again; while a message of a
 * group is in flight no later message of that group is delivered.
 */
export interface MessageQueue<T> extends ObservedQueue {
  /** Any number of messages; an adapter splits them into the batches its service takes. */
  send(messages: readonly OutgoingMessage<T>[]): Promise<void>;
  receive(maxMessages: number): Promise<Delivery<T>[]>;
  delete(receipts: readonly string[]): Promise<void>;
  /** Makes a received message visible again after `delayMs` (backoff), keeping its receive count. */
  retryAfter(receipt: string, delayMs: number): Promise<void>;
}
