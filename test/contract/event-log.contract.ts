import { beforeEach, describe, expect, it } from 'vitest';
import type { EventLog, EventRecord } from '../../lib/ports/event-log';

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

    it("lists an indexed reason's events across objects, and any other reason's too", async () => {
      expect((await log.list({ reason: 'Preempted' })).map((event) => event.involvedObject.name)).toEqual(['batch', 'report']);
      expect((await log.list({ reason: 'ScheduleBindingFailed' })).map((event) => event.involvedObject.name)).toEqual(['batch']);
      expect(await log.list({ reason: 'Evicted' })).toEqual([]);
    });
  });
}
