/** The last hour's columns the console's charts are drawn from (console/series.ts). */
import { describe, expect, it } from 'vitest';
import { columnOf, columnStart, COLUMNS, countPerMinute, lastPerMinute, MINUTE_MS, peakPerMinute, Samples, type Sample } from '../../console/series';

const NOW = Date.parse('2026-01-01T01:00:30Z');
const at = (time: string) => Date.parse(time);

describe('columns of the last hour', () => {
  it('puts a time in the minute of the clock it falls in, now\'s minute last; older or later times in none', () => {
    expect(columnOf(NOW, NOW)).toBe(COLUMNS - 1);
    expect(columnOf(at('2026-01-01T01:00:00Z'), NOW)).toBe(COLUMNS - 1);
    expect(columnOf(at('2026-01-01T00:59:59Z'), NOW)).toBe(COLUMNS - 2);
    expect(columnOf(at('2026-01-01T00:01:00Z'), NOW)).toBe(0);
    expect(columnOf(at('2026-01-01T00:00:59Z'), NOW)).toBeUndefined();
    expect(columnOf(at('2026-01-01T01:01:00Z'), NOW)).toBeUndefined();
    expect(new Date(columnStart(0, NOW)).toISOString()).toBe('2026-01-01T00:01:00.000Z');
    expect(columnStart(COLUMNS - 1, NOW) + MINUTE_MS).toBeGreaterThan(NOW);
  });

  it('counts items per minute and key, leaving out those of unknown keys and older than the hour', () => {
    const items = [
      { time: '2026-01-01T01:00:10Z', band: 'high' },
      { time: '2026-01-01T01:00:20Z', band: 'high' },
      { time: '2026-01-01T00:58:00Z', band: 'default' },
      { time: '2026-01-01T00:58:00Z', band: 'unknown' },
      { time: '2025-12-31T23:00:00Z', band: 'high' },
    ];
    const series = countPerMinute(items, (item) => Date.parse(item.time), (item) => item.band, ['high', 'default'], NOW);
    expect(series.get('high')!.reduce((a, b) => a + b)).toBe(2);
    expect(series.get('high')![COLUMNS - 1]).toBe(2);
    expect(series.get('default')![COLUMNS - 3]).toBe(1);
    expect([...series.keys()]).toEqual(['high', 'default']);
  });
});

describe('samples kept for an hour', () => {
  it('keeps one sample per server second, in order, and forgets those older than the hour', () => {
    const samples = new Samples<number>();
    samples.add(at('2026-01-01T00:00:10Z'), 1);
    samples.add(at('2026-01-01T00:30:00Z'), 2);
    samples.add(at('2026-01-01T00:30:00Z'), 3); // the same second: replaces
    samples.add(at('2026-01-01T00:20:00Z'), 9); // older than the last: ignored
    expect(samples.through(at('2026-01-01T00:31:00Z'), 4).map((sample) => sample.value)).toEqual([1, 3, 4]);
    samples.add(at('2026-01-01T01:05:00Z'), 5);
    expect(samples.through(at('2026-01-01T01:06:00Z'), 6).map((sample) => sample.value)).toEqual([3, 5, 6]);
  });

  it('draws each minute at its peak per key, and minutes without a sample as nothing rather than zero', () => {
    const samples: Array<Sample<Record<string, number>>> = [
      { time: at('2026-01-01T01:00:01Z'), value: { a: 3, b: 1 } },
      { time: at('2026-01-01T01:00:03Z'), value: { a: 1 } },
      { time: at('2026-01-01T00:58:00Z'), value: { a: 0, b: 0 } },
    ];
    const series = peakPerMinute(samples, ['a', 'b'], NOW);
    expect(series.get('a')![COLUMNS - 1]).toBe(3);
    expect(series.get('b')![COLUMNS - 1]).toBe(1);
    expect(series.get('a')![COLUMNS - 3]).toBe(0);
    expect(series.get('a')![COLUMNS - 2]).toBeUndefined();
  });

  it('takes the last sample of each minute for how things stood', () => {
    const columns = lastPerMinute([{ time: at('2026-01-01T01:00:01Z'), value: 'first' }, { time: at('2026-01-01T01:00:05Z'), value: 'last' }], NOW);
    expect(columns).toHaveLength(COLUMNS);
    expect(columns[COLUMNS - 1]).toBe('last');
    expect(columns.slice(0, -1).every((value) => value === undefined)).toBe(true);
  });
});
