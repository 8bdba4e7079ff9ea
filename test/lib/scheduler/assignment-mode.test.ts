import { describe, expect, it } from 'vitest';
import { assignmentModeOf, rescheduleRequired } from '../../../lib/scheduler/assignment-mode';
import { binding } from './support';

const CURRENT = '2026-01-01T00:01:00Z';
const PREVIOUS = '2026-01-01T00:00:00Z';

describe("rescheduleRequired (Karmada's pkg/util/binding_test.go, TestRescheduleRequired)", () => {
  it.each([
    ['"rescheduleTriggeredAt is nil"', { lastScheduledTime: CURRENT }, false],
    ['"lastScheduledTime is nil"', { rescheduleTriggeredAt: CURRENT }, false],
    ['"rescheduleTriggeredAt is before than lastScheduledTime"', { rescheduleTriggeredAt: PREVIOUS, lastScheduledTime: CURRENT }, false],
    ['"rescheduleTriggeredAt is later than lastScheduledTime"', { rescheduleTriggeredAt: CURRENT, lastScheduledTime: PREVIOUS }, true],
    ['the same instant', { rescheduleTriggeredAt: CURRENT, lastScheduledTime: CURRENT }, false],
    ['the same instant, written with milliseconds and an offset', { rescheduleTriggeredAt: '2026-01-01T01:01:00+01:00', lastScheduledTime: '2026-01-01T00:01:00.000Z' }, false],
  ])('%s', (_, times, required) => {
    const subject = binding('web', times);
    expect(rescheduleRequired(subject)).toBe(required);
    expect(assignmentModeOf(subject)).toBe(required ? 'Fresh' : 'Steady');
  });
});
