import type { InstrumentableClient } from '../../../functions/adapters/aws-context';
import type { Context } from 'aws-lambda';

/**
 * How the k-th call fails: `throttling` is refused before it takes effect (as after the SDK's own
 * retries gave up); `timeout` takes effect but its caller gets an error; `crash` takes effect and then
 * the function's process dies, so none of its code runs after the call.
 */
export type FaultKind = 'throttling' | 'timeout' | 'crash';

export const FAULT_KINDS: readonly FaultKind[] = ['throttling', 'timeout', 'crash'];

function awsError(name: string, message: string): Error {
  return Object.assign(new Error(message), { name, $fault: name === 'TimeoutError' ? 'client' : 'server', $metadata: {} });
}

/** Ends an invocation whose process died: what Lambda reports, and why its messages come back. */
export class HandlerCrash extends Error {
  constructor(functionName: string) {
    super(`${functionName} crashed after its call took effect`);
    this.name = 'HandlerCrash';
  }
}

/**
 * Counts the calls the functions make and fails the k-th one. Calls are counted from `arm` on, each
 * labelled with the function that made it, so that a test can pick calls of every function.
 */
export class FaultPlan {
  /** Each call counted since `arm`, in order: the function that made it and what it was. */
  readonly calls: Array<{ readonly caller: string; readonly call: string }> = [];
  private fault: { kind: FaultKind; k: number } | undefined;
  private armed = false;
  private running = 'none';
  private crashCurrent: ((crash: HandlerCrash) => void) | undefined;

  /** Counts from now on; with a fault, fails the k-th call (1-based) as `kind` says. */
  arm(fault?: { kind: FaultKind; k: number }): void {
    this.armed = true;
    this.fault = fault;
    this.calls.length = 0;
  }

  /** Stops counting and failing: what runs after this is the test reading the outcome. */
  disarm(): void {
    this.armed = false;
  }

  get injected(): boolean {
    return this.fault !== undefined && this.calls.length >= this.fault.k;
  }

  /** Makes one call, named `name` (an SDK command, a port method), as the plan says. */
  async around<T>(name: string, call: () => Promise<T>): Promise<T> {
    if (!this.armed) return call();
    this.calls.push({ caller: this.running, call: name });
    if (this.fault?.k !== this.calls.length) return call();
    if (this.fault.kind === 'throttling') throw awsError('ThrottlingException', 'Rate exceeded (injected)');
    await call();
    if (this.fault.kind === 'timeout') throw awsError('TimeoutError', 'Connection timed out after the request was sent (injected)');
    this.crashCurrent?.(new HandlerCrash(this.running));
    // Never settles: the process is gone, nothing after this call runs.
    return new Promise<T>(() => undefined);
  }

  /** One invocation of a function; rejects with HandlerCrash when a call it makes crashes it. */
  async invoke<T>(functionName: string, run: () => Promise<T>): Promise<T> {
    this.running = functionName;
    const crashed = new Promise<never>((_, reject) => (this.crashCurrent = reject));
    try {
      return await Promise.race([run(), crashed]);
    } finally {
      this.running = 'none';
      this.crashCurrent = undefined;
    }
  }

  /** For loadLocalFunctions: each invocation by a queue or stream poller runs through `invoke`. */
  readonly wrapHandler =
    <E>(handler: (event: E, context: Context) => Promise<unknown>) =>
    (event: E, context: Context): Promise<unknown> =>
      this.invoke(context.functionName, () => handler(event, context));

  /** A port whose every method call goes through `around`. */
  wrapPort<T extends object>(port: T): T {
    return new Proxy(port, {
      get: (target, property, receiver) => {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => this.around(String(property), () => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
      },
    });
  }

  /**
   * For onAwsClients: SDK middleware on every client (the document client shares the DynamoDB one's
   * stack). It sits at the initialize step, outside the SDK's retries: an injected throttle is one
   * that outlasted them.
   */
  readonly instrumentClient = (client: InstrumentableClient): void => {
    const middleware =
      <Args, Output>(next: (args: Args) => Promise<Output>, context: { commandName?: string }) =>
      (args: Args): Promise<Output> =>
        this.around(context.commandName ?? 'unknown', () => next(args));
    client.middlewareStack.add(middleware, { step: 'initialize', name: 'injectFaults' });
  };
}
