import { describe, expect, it } from 'vitest';
import { ScheduleTickingQueue } from '../../functions/adapters/schedule-ticking-queue';
import { MemoryMessageQueue } from '../../lib/memory/memory-message-queue';
import { ManualClock } from '../../lib/memory/manual-clock';
import type { MessageQueue, OutgoingMessage } from '../../lib/ports/message-queue';

const BINDINGS_PER_TICK = 10;
const CYCLES = 4;

function ticking() {
  const clock = new ManualClock(0);
  const band = new MemoryMessageQueue<{ n: number }>('band', clock);
  const tick = new MemoryMessageQueue<{ tick: true }>('tick', clock);
  let n = 0;
  const bindings = (count: number) => Array.from({ length: count }, () => ({ body: { n }, groupId: `g${n}`, deduplicationId: `d${n++}` }));
  return { band, tick, queue: new ScheduleTickingQueue(band, tick, BINDINGS_PER_TICK, CYCLES), bindings };
}

/** The groups of the ticks a cycle could take now, one at a time as the event source mapping hands them out. */
async function ticksInFlight(tick: MemoryMessageQueue<{ tick: true }>): Promise<number> {
  let taken = 0;
  while ((await tick.receive(1)).length === 1) taken += 1;
  return taken;
}

describe('ScheduleTickingQueue: the ticks that start schedule cycles follow the bindings sent', () => {
  it.each<[string, readonly number[], number]>([
    ['one binding: one tick', [1], 1],
    ['ten bindings in one send: one tick, a cycle takes ten at a time', [10], 1],
    ['eleven: two ticks, two cycles', [11], 2],
    ['thirty-five in one send: four ticks, as many cycles as may run', [35], 4],
    ['a hundred in one send: no more ticks than cycles that may run', [100], 4],
    ['five sends of one: one tick each (an empty send none)', [1, 1, 0, 1, 1, 1], 5],
  ])('%s', async (_, sends, ticks) => {
    const { band, tick, queue, bindings } = ticking();
    for (const count of sends) await queue.send(bindings(count));
    expect(band.held()).toBe(sends.reduce((sum, count) => sum + count, 0));
    expect(tick.held()).toBe(ticks);
  });

  it('spreads the ticks over the groups, so that a burst starts cycles side by side and one held tick holds up only its group', async () => {
    const { tick, queue, bindings } = ticking();
    await queue.send(bindings(35));
    expect(await ticksInFlight(tick)).toBe(CYCLES);

    // Five more sends later: the fifth tick waits behind the first of its group.
    const later = ticking();
    for (let send = 0; send < CYCLES + 1; send++) await later.queue.send(later.bindings(BINDINGS_PER_TICK));
    expect(later.tick.held()).toBe(CYCLES + 1);
    expect(await ticksInFlight(later.tick)).toBe(CYCLES);
  });

  it('counts from the block it is given: a send of eleven from group 2 ticks groups 2 and 3', async () => {
    const clock = new ManualClock(0);
    const groups: string[] = [];
    const tick = new MemoryMessageQueue<{ tick: true }>('tick', clock);
    const recordingTick: MessageQueue<{ tick: true }> = Object.create(tick, {
      send: { value: (messages: readonly OutgoingMessage<{ tick: true }>[]) => (groups.push(...messages.map((m) => m.groupId)), tick.send(messages)) },
    });
    const queue = new ScheduleTickingQueue(new MemoryMessageQueue<{ n: number }>('band', clock), recordingTick, BINDINGS_PER_TICK, CYCLES, 2);
    await queue.send(Array.from({ length: 11 }, (_, n) => ({ body: { n }, groupId: `g${n}`, deduplicationId: `d${n}` })));
    expect(groups).toEqual(['schedule-2', 'schedule-3']);
  });

  it('starts each fresh queue at a random group, so that the first sends of many new execution environments do not all tick one group', async () => {
    const clock = new ManualClock(0);
    const tick = new MemoryMessageQueue<{ tick: true }>('tick', clock);
    for (let environment = 0; environment < 40; environment++) {
      const queue = new ScheduleTickingQueue(new MemoryMessageQueue<{ n: number }>('band', clock), tick, BINDINGS_PER_TICK, CYCLES);
      await queue.send([{ body: { n: environment }, groupId: `g${environment}`, deduplicationId: `d${environment}` }]);
    }
    // One tick of each group can be in flight: more than one means the starts were spread.
    expect(await ticksInFlight(tick)).toBeGreaterThan(1);
  });
});

