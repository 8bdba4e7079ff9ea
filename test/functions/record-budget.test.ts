import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RecordBudget, STOP_TAKING_WORK_MS } from '../../functions/record-budget';

/** An invocation with `totalMs` to run, on the test's fake clock. */
function invocation(totalMs: number) {
  const deadline = Date.now() + totalMs;
  return { getRemainingTimeInMillis: () => deadline - Date.now() };
}

/** A record that takes `ms` of the clock. */
const taking = (ms: number) => async () => {
  vi.advanceTimersByTime(ms);
  return ms;
};

describe('the time an invocation gives its records', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it(`starts no record with under ${STOP_TAKING_WORK_MS} ms left`, async () => {
    const budget = new RecordBudget(invocation(STOP_TAKING_WORK_MS - 1));
    await expect(budget.run('redelivery', taking(1))).rejects.toThrow(`left for redelivery: under ${STOP_TAKING_WORK_MS} ms of the invocation's time remained`);
  });

  it('keeps back twice the longest record so far besides, so that a slow record is not cut off', async () => {
    const budget = new RecordBudget(invocation(60_000));
    expect(await budget.run('redelivery', taking(20_000))).toBe(20_000);
    // 40 s left: enough for the fixed margin alone, not for it and twice the 20 s record.
    await expect(budget.run('redelivery', taking(1))).rejects.toThrow(`under ${STOP_TAKING_WORK_MS + 40_000} ms`);
  });

  it('runs record after record while there is time', async () => {
    const budget = new RecordBudget(invocation(60_000));
    for (let record = 0; record < 10; record += 1) await budget.run('redelivery', taking(1_000));
    expect(await budget.run('redelivery', taking(1_000))).toBe(1_000);
  });

  it('counts a record that failed as taking its time too', async () => {
    const budget = new RecordBudget(invocation(30_000));
    await expect(budget.run('redelivery', async () => {
      vi.advanceTimersByTime(10_000);
      throw new Error('conflict');
    })).rejects.toThrow('conflict');
    await expect(budget.run('redelivery', taking(1))).rejects.toThrow(`under ${STOP_TAKING_WORK_MS + 20_000} ms`);
  });
});
