/** The local proxy's queue for DynamoDB requests: one at a time, background tasks only when no other waits. */
import { describe, expect, it } from 'vitest';
import { OneAtATime } from '../../functions/local/one-at-a-time';

/** A task that starts when its turn comes and ends when released. */
function held(started: string[], name: string): { task: () => Promise<string>; release(): void } {
  let release = () => {};
  const done = new Promise<void>((resolve) => (release = resolve));
  return {
    task: async () => {
      started.push(name);
      await done;
      return name;
    },
    release: () => release(),
  };
}

const turns = () => new Promise((resolve) => setImmediate(resolve));

describe('one at a time', () => {
  it('runs a waiting foreground task before every background task queued earlier', async () => {
    const queue = new OneAtATime();
    const started: string[] = [];
    const first = held(started, 'first');
    const watches = [1, 2, 3].map((n) => held(started, `watch-${n}`));
    const scheduling = [1, 2].map((n) => held(started, `cycle-${n}`));
    const done = [queue.run(first.task, false), ...watches.map((w) => queue.run(w.task, true)), ...scheduling.map((s) => queue.run(s.task, false))];
    await turns();
    expect(started).toEqual(['first']);
    for (const task of [first, ...scheduling, ...watches]) {
      task.release();
      await turns();
    }
    expect(await Promise.all(done)).toEqual(['first', 'watch-1', 'watch-2', 'watch-3', 'cycle-1', 'cycle-2']);
    expect(started).toEqual(['first', 'cycle-1', 'cycle-2', 'watch-1', 'watch-2', 'watch-3']);
  });

  it('goes on after a task fails, which its caller hears', async () => {
    const queue = new OneAtATime();
    const failed = queue.run(async () => Promise.reject(new Error('upstream closed')), false);
    const next = queue.run(async () => 'next', true);
    await expect(failed).rejects.toThrow('upstream closed');
    expect(await next).toBe('next');
  });

  it('never runs two at once', async () => {
    const queue = new OneAtATime();
    let running = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        queue.run(async () => {
          most = Math.max(most, ++running);
          await turns();
          running -= 1;
        }, n % 3 === 0),
      ),
    );
    expect(most).toBe(1);
  });
});
