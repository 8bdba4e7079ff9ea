import { describe, expect, it } from 'vitest';
import { resourceDefinitions, resourcesAt } from '../../functions/adapters/definitions';
import { environmentFor, parseSettings, readEnvironment } from '../../functions/environment';
import { DEFAULT_BANDS } from '../../lib/config';
import { TENANCY } from '../lib/auth/support';

describe('OUTRANK_SETTINGS with tenancy', () => {
  it('has no tenancy when none is configured: every caller is an admin', () => {
    expect(parseSettings(undefined).tenancy).toBeUndefined();
    expect(parseSettings(JSON.stringify({ preemptibleBelowPriority: 50 })).tenancy).toBeUndefined();
  });

  it('reads the tenancy model beside the scheduler settings', () => {
    const { config, tenancy } = parseSettings(JSON.stringify({ preemptibleBelowPriority: 50, tenancy: TENANCY }));
    expect(tenancy).toEqual(TENANCY);
    expect(config.preemptibleBelowPriority).toBe(50);
  });

  it('gives the controllers the namespaces granted non-preemptible work: none when tenancy grants none, every one without tenancy', () => {
    expect(parseSettings(JSON.stringify({ tenancy: TENANCY })).config.nonPreemptibleNamespaces).toEqual(['team-a-batch']);
    const { nonPreemptibleNamespaces: _granted, ...withoutGrant } = TENANCY;
    expect(parseSettings(JSON.stringify({ tenancy: withoutGrant })).config.nonPreemptibleNamespaces).toEqual([]);
    expect(parseSettings(JSON.stringify({})).config.nonPreemptibleNamespaces).toBeUndefined();
  });

  it('binding priority and preemption (000), queue: the unschedulable flush interval is a setting in seconds, five minutes by default', () => {
    expect(parseSettings(undefined).config.unschedulableRequeueMs).toBe(300_000);
    expect(parseSettings(JSON.stringify({ unschedulableFlushSeconds: 30 })).config.unschedulableRequeueMs).toBe(30_000);
    expect(() => parseSettings(JSON.stringify({ unschedulableFlushSeconds: 0 }))).toThrow(/unschedulableFlushSeconds/);
  });

  it("schedulerNames: the bindings outrank schedules are Karmada's default scheduler's unless the settings name others", () => {
    expect(parseSettings(undefined).config.schedulerNames).toEqual(['default-scheduler']);
    expect(parseSettings(JSON.stringify({ schedulerNames: ['outrank', 'default-scheduler'] })).config.schedulerNames).toEqual(['outrank', 'default-scheduler']);
    expect(() => parseSettings(JSON.stringify({ schedulerNames: [] }))).toThrow(/schedulerNames[\s\S]*must name at least one scheduler/);
    expect(() => parseSettings(JSON.stringify({ schedulerNames: [''] }))).toThrow(/schedulerNames[\s\S]*must not be empty/);
  });

  it('fails loudly on a tenancy it cannot enforce as written', () => {
    expect(() => parseSettings(JSON.stringify({ tenancy: { admins: ['arn:*:x'], tenants: [] } }))).toThrow(/only as its last character/);
    expect(() => parseSettings(JSON.stringify({ tenancy: { admins: [], tenants: [], restricted: ['critical'] } }))).toThrow(/restricted/);
  });
});

describe('SCHEDULE_CYCLES: how many schedule cycles may run at once, the message groups of the ticks', () => {
  const resources = resourcesAt(resourceDefinitions('settings', DEFAULT_BANDS), (name) => `http://127.0.0.1:1/${name}`);

  it('is four unless the stack says otherwise, and read as the stack writes it', () => {
    expect(readEnvironment({ ...environmentFor(resources), SCHEDULE_CYCLES: undefined }).scheduleCycles).toBe(4);
    expect(readEnvironment(environmentFor(resources, undefined, 7)).scheduleCycles).toBe(7);
  });

  it.each(['0', '2.5', 'four'])('refuses %s: a whole number of at least 1', (value) => {
    expect(() => readEnvironment({ ...environmentFor(resources), SCHEDULE_CYCLES: value })).toThrow(/SCHEDULE_CYCLES/);
  });
});

describe('WHAT_IF_CONCURRENCY: how many what-ifs a process serving the API runs at once', () => {
  const resources = resourcesAt(resourceDefinitions('settings', DEFAULT_BANDS), (name) => `http://127.0.0.1:1/${name}`);

  it('is two unless set', () => {
    expect(readEnvironment(environmentFor(resources)).whatIfConcurrency).toBe(2);
    expect(readEnvironment({ ...environmentFor(resources), WHAT_IF_CONCURRENCY: '5' }).whatIfConcurrency).toBe(5);
  });

  it.each(['0', '1.5', 'two'])('refuses %s: a whole number of at least 1', (value) => {
    expect(() => readEnvironment({ ...environmentFor(resources), WHAT_IF_CONCURRENCY: value })).toThrow(/WHAT_IF_CONCURRENCY/);
  });
});
