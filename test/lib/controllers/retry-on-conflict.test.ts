import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../../lib/ports/object-store';
import { retryOnConflict, type Attempt } from '../../../lib/controllers/retry-on-conflict';

const ref = { group: 'g', kind: 'K', namespace: '', name: 'n' };
const conflict = () => new ConflictError([ref]);

/** What each attempt throws (undefined: it commits), and what the retry does with that. */
interface RetryCase {
  readonly name: string;
  readonly maxAttempts: number;
  readonly outcomes: ReadonlyArray<Error | undefined>;
  readonly attempts: readonly Attempt[];
  readonly conflictsSeen: number;
  readonly result: 'committed' | 'ConflictError' | 'Error';
}

const CASES: readonly RetryCase[] = [
  { name: 'commits at once', maxAttempts: 3, outcomes: [undefined], attempts: [{ number: 1, last: false }], conflictsSeen: 0, result: 'committed' },
  {
    name: 'a conflict, then a commit',
    maxAttempts: 3,
    outcomes: [conflict(), undefined],
    attempts: [
      { number: 1, last: false },
      { number: 2, last: false },
    ],
    conflictsSeen: 1,
    result: 'committed',
  },
  {
    name: 'conflicts every time: the last conflict is thrown, after onConflict has seen it',
    maxAttempts: 3,
    outcomes: [conflict(), conflict(), conflict()],
    attempts: [
      { number: 1, last: false },
      { number: 2, last: false },
      { number: 3, last: true },
    ],
    conflictsSeen: 3,
    result: 'ConflictError',
  },
  { name: 'one attempt allowed (a write with a resourceVersion precondition)', maxAttempts: 1, outcomes: [conflict()], attempts: [{ number: 1, last: true }], conflictsSeen: 1, result: 'ConflictError' },
  { name: 'another error is thrown at once, never retried', maxAttempts: 3, outcomes: [new Error('store down')], attempts: [{ number: 1, last: false }], conflictsSeen: 0, result: 'Error' },
];

describe('retry on conflict: the one rule for writes decided again when what they were decided on changed', () => {
  it.each(CASES)('$name', async ({ maxAttempts, outcomes, attempts, conflictsSeen, result }) => {
    const seen: Attempt[] = [];
    let conflicts = 0;
    const run = retryOnConflict(
      maxAttempts,
      async (current) => {
        const outcome = outcomes[seen.length];
        seen.push(current);
        if (outcome) throw outcome;
        return 'committed';
      },
      {
        onConflict: async (error) => {
          expect(error.refs).toEqual([ref]);
          conflicts += 1;
        },
      },
    );
    if (result === 'committed') await expect(run).resolves.toBe('committed');
    else await expect(run).rejects.toThrow(result === 'ConflictError' ? ConflictError : 'store down');
    expect(seen).toEqual(attempts);
    expect(conflicts).toBe(conflictsSeen);
  });
});
