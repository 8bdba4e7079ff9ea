import { beforeEach, describe, expect, it } from 'vitest';
import { EventPositionError, type EventLog, type EventRecord } from '../../lib/ports/event-log';
import { compareRevisions } from '../../lib/ports/object-store';

const binding = (name: string) => ({ apiVersion: 'work.karmada.io/v1alpha2', kind: 'ResourceBinding', namespace: 'default', name });

const recorded: readonly EventRecord[] = [
  { type: 'Normal', reason: 'ScheduleBindingSucceed', object: binding('web'), message: 'placed web' },
  { type: 'Warning', reason: 'Preempted', object: binding('batch'), message: 'batch preempted by web', related: binding('web') },
  { type: 'Warning', reason: 'ScheduleBindingFailed', object: binding('batch'), message: 'no cluster fits batch' },
  { type: 'Warning', reason: 'Preempted', object: binding('report'), message: 'report preempted by web', related: binding('web') },
];

/** What every EventLog must answer; run against the in-memory log and the DynamoDB table. */
export function eventLogContract(name: string, makeLog: () => Promise<EventLog>): void {
  describe(`EventLog contract: ${name}`, () => {
    let log: EventLog;
    beforeEach(async () => {
      log = await makeLog();
      for (const event of recorded) await log.record(event);
    });

    it('lists every event, oldest first, as Kubernetes events', async () => {
      const events = await log.list();
      expect(events.map((event) => event.message)).toEqual(recorded.map((event) => event.message));
      expect(events[1]).toMatchObject({ apiVersion: 'v1', kind: 'Event', type: 'Warning', reason: 'Preempted', involvedObject: binding('batch'), related: binding('web') });
    });

    it("lists one object's events", async () => {
      const events = await log.list({ object: binding('batch') });
      expect(events.map((event) => event.reason)).toEqual(['Preempted', 'ScheduleBindingFailed']);
    });

    it('lists every event a page at a time from the position the last page gave, each once, and refuses a position it did not give', async () => {
      for (let index = 0; index < 6; index++) await log.record({ type: 'Normal', reason: 'Paged', object: binding(`extra-${index}`), message: `extra ${index}` });
      const messages: string[] = [];
      const sizes: number[] = [];
      let from: string | undefined;
      for (let page = 0; page < 10; page++) {
        const read = await log.listPage(3, from);
        messages.push(...read.events.map((event) => event.message));
        sizes.push(read.events.length);
        from = read.next;
        if (from === undefined) break;
      }
      expect(from).toBeUndefined();
      expect(messages.sort()).toEqual([...recorded.map((event) => event.message), ...Array.from({ length: 6 }, (_, index) => `extra ${index}`)].sort());
      // Ten events: three full pages, then the last; a log that cannot tell the end may add an empty page.
      expect(sizes.slice(0, 4)).toEqual([3, 3, 3, 1]);
      await expect(log.listPage(3, 'not-a-position')).rejects.toBeInstanceOf(EventPositionError);
    });

    it('gives the events recorded after a version, each with its own, and refuses a version it did not give', async () => {
      const version = log.currentVersion();
      await log.record({ type: 'Normal', reason: 'Fed', object: binding('first'), message: 'first' });
      await log.record({ type: 'Normal', reason: 'Fed', object: binding('second'), message: 'second' });
      // A log may give some events at or before the version again: a reader skips them by version.
      const after = async (from: string) => (await log.recordedAfter(from))!.events.filter((event) => compareRevisions(event.metadata.resourceVersion!, from) > 0);
      // Every event recorded after the version is later (on DynamoDB, some recorded just before it too).
      const fed = (await after(version)).filter((event) => event.reason === 'Fed');
      expect(fed.map((event) => event.message)).toEqual(['first', 'second']);
      expect((await after(fed[0]!.metadata.resourceVersion!)).map((event) => event.message)).toEqual(['second']);
      // Reading on from a page's version: what was recorded since, nothing missed.
      const page = (await log.recordedAfter(fed[1]!.metadata.resourceVersion!))!;
      await log.record({ type: 'Normal', reason: 'Fed', object: binding('third'), message: 'third' });
      expect((await after(page.version)).map((event) => event.message)).toContain('third');
      // A list's events carry the versions the feed gives.
      expect((await log.list({ object: binding('second') })).map((event) => event.metadata.resourceVersion)).toEqual([fed[1]!.metadata.resourceVersion]);
      expect(await log.recordedAfter('not-a-version')).toBeUndefined();
    });

    it("lists an indexed reason's events across objects, and any other reason's too", async () => {
      expect((await log.list({ reason: 'Preempted' })).map((event) => event.involvedObject.name)).toEqual(['batch', 'report']);
      expect((await log.list({ reason: 'ScheduleBindingFailed' })).map((event) => event.involvedObject.name)).toEqual(['batch']);
      expect(await log.list({ reason: 'Evicted' })).toEqual([]);
    });
  });
}
