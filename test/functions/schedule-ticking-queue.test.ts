import { describe, expect, it } from 'vitest';
import { ScheduleTickingQueue, TICK_GROUPS } from '../../functions/adapters/schedule-ticking-queue';
import { MemoryMessageQueue } from '../../lib/memory/memory-message-queue';
import { ManualClock } from '../../lib/memory/manual-clock';

describe('ScheduleTickingQueue', () => {
  it('drops a tick after each send, spreading the ticks over the tick groups so that one held tick holds up only its group', async () => {
    const clock = new ManualClock(0);
    const band = new MemoryMessageQueue<{ n: number }>('band', clock);
    const tick = new MemoryMessageQueue<{ tick: true }>('tick', clock);
    const ticking = new ScheduleTickingQueue(band, tick);
    for (let n = 0; n < TICK_GROUPS + 1; n++) await ticking.send([{ body: { n }, groupId: `g${n}`, deduplicationId: `d${n}` }]);
    await ticking.send([]);
    expect(band.held()).toBe(TICK_GROUPS + 1);
    expect(tick.held()).toBe(TICK_GROUPS + 1);
    // Cycles take one tick each: one of each group can be in flight at once, so a cycle that died
    // holding one does not hold up the others; the fifth waits behind the first of its group.
    let inFlight = 0;
    while ((await tick.receive(1)).length === 1) inFlight += 1;
    expect(inFlight).toBe(TICK_GROUPS);
  });
});
