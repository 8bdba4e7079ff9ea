import { describe, expect, it } from 'vitest';
import { LongestStep } from '../../../lib/controllers/longest-step';

/** A clock that moves on by `ms` when a step runs. */
function clock() {
  let now = 0;
  return { now: () => now, taking: (ms: number) => async () => void (now += ms) };
}

describe('the room the next step is given', () => {
  it('is nothing before any step, then twice the longest step so far', async () => {
    const { now, taking } = clock();
    const steps = new LongestStep(now);
    expect(steps.nextNeedsMs).toBe(0);
    for (const [ms, needs] of [[300, 600], [1_000, 2_000], [200, 2_000]] as const) {
      await steps.timed(taking(ms));
      expect(steps.nextNeedsMs).toBe(needs);
    }
  });

  it('counts a step that failed', async () => {
    let time = 0;
    const steps = new LongestStep(() => time);
    await expect(steps.timed(async () => {
      time += 4_000;
      throw new Error('conflict');
    })).rejects.toThrow('conflict');
    expect(steps.nextNeedsMs).toBe(8_000);
  });
});
