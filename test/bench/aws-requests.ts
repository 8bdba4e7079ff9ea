/**
 * SDK middleware that counts every AWS request the functions and the local event source mappings
 * make, by caller, service and operation, and notes when each binding was put on a priority band.
 */
import { onAwsClients } from '../../functions/adapters/aws-context';

type Handler = (args: { input: unknown; request?: unknown }) => Promise<unknown>;
interface MiddlewareStack {
  add(middleware: (next: Handler) => Handler, options: { step: 'initialize' | 'deserialize'; name: string }): void;
}

export interface RequestCount {
  readonly caller: string;
  readonly service: string;
  readonly operation: string;
  readonly count: number;
}

interface SentMessage {
  readonly binding?: { readonly namespace?: string; readonly name?: string };
  /** Band messages: when the binding was queued. */
  readonly enqueuedAt?: number;
  /** binding-enqueue requests: what prompted the request. */
  readonly cause?: string;
}

export class AwsRequestCounter {
  /** Who is calling now: the bench sets it around each phase and each handler invocation. */
  caller = 'setup';
  private readonly counts = new Map<string, number>();
  /** namespace/name → when the binding was first put on a band queue (QueuedBinding.enqueuedAt). */
  readonly firstEnqueued = new Map<string, number>();
  /** The priority band queues, known once they are provisioned. */
  readonly bandQueueUrls = new Set<string>();
  /** Messages sent, by queue name (the last part of its URL), and binding-enqueue requests by cause. */
  readonly messagesSent = new Map<string, number>();
  readonly requestsByCause = new Map<string, number>();

  /** Instruments every set of clients made from now on; returns what stops it. */
  attach(): () => void {
    return onAwsClients((client, service) => this.instrument(client.middlewareStack as unknown as MiddlewareStack, service));
  }

  reset(): void {
    this.counts.clear();
    this.firstEnqueued.clear();
    this.messagesSent.clear();
    this.requestsByCause.clear();
  }

  list(): RequestCount[] {
    return [...this.counts].map(([key, count]) => {
      const [caller, service, operation] = key.split('\t') as [string, string, string];
      return { caller, service, operation, count };
    });
  }

  private instrument(stack: MiddlewareStack, service: string): void {
    // In the deserialize step, below the retry middleware: every attempt is one request.
    stack.add(
      (next) => async (args) => {
        const key = `${this.caller}\t${service}\t${operationOf(args.request)}`;
        this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
        return next(args);
      },
      { step: 'deserialize', name: 'benchRequestCounter' },
    );
    if (service === 'SQS') stack.add((next) => async (args) => (this.noteMessages(args.input), next(args)), { step: 'initialize', name: 'benchMessages' });
  }

  private noteMessages(input: unknown): void {
    const { QueueUrl, Entries, MessageBody } = input as { QueueUrl?: string; Entries?: { MessageBody?: string }[]; MessageBody?: string };
    if (!QueueUrl) return;
    const bodies = Entries ? Entries.map((entry) => entry.MessageBody) : MessageBody !== undefined ? [MessageBody] : [];
    const queue = QueueUrl.split('/').at(-1) ?? QueueUrl;
    for (const text of bodies) {
      this.messagesSent.set(queue, (this.messagesSent.get(queue) ?? 0) + 1);
      const body = JSON.parse(text ?? '{}') as SentMessage;
      if (body.cause !== undefined) this.requestsByCause.set(body.cause, (this.requestsByCause.get(body.cause) ?? 0) + 1);
      if (!this.bandQueueUrls.has(QueueUrl)) continue;
      const key = `${body.binding?.namespace ?? ''}/${body.binding?.name ?? ''}`;
      if (body.enqueuedAt !== undefined && !this.firstEnqueued.has(key)) this.firstEnqueued.set(key, body.enqueuedAt);
    }
  }
}

/** The operation from the JSON protocols' X-Amz-Target header ("DynamoDB_20120810.TransactWriteItems"). */
function operationOf(request: unknown): string {
  const headers = (request as { headers?: Record<string, string> } | undefined)?.headers ?? {};
  const target = headers['x-amz-target'] ?? headers['X-Amz-Target'];
  return target?.split('.').at(-1) ?? 'unknown';
}
