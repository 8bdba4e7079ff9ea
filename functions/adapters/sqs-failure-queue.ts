import type { SQSClient } from '@aws-sdk/client-sqs';
import type { ObservedQueue, QueueDepth } from '../../lib/ports/message-queue';
import { messagesIn } from './sqs-message-queue';

/**
 * A queue that receives what was given up on, as a dead-letter queue does, rather than work: the
 * objects table's stream failures (the on-failure destination of policy-change's event source mapping).
 * Nothing consumes it, so it holds no work in progress, and every message in it is a failure.
 */
export class SqsFailureQueue implements ObservedQueue {
  constructor(
    private readonly client: SQSClient,
    readonly name: string,
    private readonly queueUrl: string,
  ) {}

  async depth(): Promise<QueueDepth> {
    return { visible: 0, inFlight: 0 };
  }

  deadLettered(): Promise<number> {
    return messagesIn(this.client, this.queueUrl);
  }
}
