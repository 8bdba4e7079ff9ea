/** Times as the console shows them: how long ago, and the time itself on hover (console/time.ts). */
import { describe, expect, it } from 'vitest';
import { absoluteTime, clockTime, shownTime } from '../../console/time';

const NOW = Date.parse('2026-01-01T00:10:00Z');

describe('shown times', () => {
  it.each([
    ['2026-01-01T00:09:15Z', '45s ago'],
    ['2026-01-01T00:07:00Z', '3m ago'],
    ['2025-12-31T22:00:00Z', '2h ago'],
    ['2025-12-25T00:00:00Z', '7d ago'],
  ])('%s is "%s" against the server\'s time', (time, text) => {
    expect(shownTime(time, NOW, 'en-GB', 'UTC')?.text).toBe(text);
  });

  it('gives the absolute time, zone named, for the hover, and the time as written for <time datetime>', () => {
    expect(shownTime('2026-01-01T00:07:00Z', NOW, 'en-GB', 'UTC')).toEqual({ text: '3m ago', title: '1 Jan 2026, 00:07:00 UTC', iso: '2026-01-01T00:07:00Z' });
    expect(absoluteTime(NOW, 'en-GB', 'Asia/Tokyo')).toBe('1 Jan 2026, 09:10:00 GMT+9');
  });

  it('is "0s ago" for a time ahead of the server\'s clock, and nothing without a time', () => {
    expect(shownTime('2026-01-01T00:11:00Z', NOW, 'en-GB', 'UTC')?.text).toBe('0s ago');
    expect(shownTime(undefined, NOW)).toBeUndefined();
    expect(shownTime('not a time', NOW)).toBeUndefined();
  });

  it('names a chart column by its minute', () => {
    expect(clockTime(Date.parse('2026-01-01T13:07:00Z'), 'en-GB', 'UTC')).toBe('13:07');
  });
});
