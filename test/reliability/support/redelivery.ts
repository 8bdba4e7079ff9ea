import type { Pipeline } from '../../integration/pipeline';
import { messagesHeld, sleep } from './aws-state';

/** More rounds than this and a message is going round forever. */
const MAX_ROUNDS = 60;

/**
 * Settles the pipeline, then, while any queue still holds a message (in flight after a failure, or
 * waiting out a backoff), waits for it to come back and runs a schedule cycle, as the EventBridge
 * schedule does in case no tick is left to start one. `scheduleCycle` is that invocation.
 */
export async function settleWithRedelivery(pipeline: Pipeline, scheduleCycle: () => Promise<unknown> = () => pipeline.functions.scheduleCycle()): Promise<void> {
  for (let round = 1; round <= MAX_ROUNDS; round += 1) {
    await pipeline.settle();
    if ((await messagesHeld(pipeline.aws)) === 0) return;
    await sleep(1_000);
    await scheduleCycle().catch((error: unknown) => pipeline.errors.push(error));
  }
  throw new Error(`messages still held after ${MAX_ROUNDS} rounds`);
}
