/** OUTRANK_WATCHES_PER_CALLER: how many watches one caller holds open in a process (default 20). */
import { describe, expect, it } from 'vitest';
import { watchesPerCaller } from '../../functions/watch';

describe('OUTRANK_WATCHES_PER_CALLER', () => {
  it('is 20 when not set', () => {
    expect(watchesPerCaller({})).toBe(20);
    expect(watchesPerCaller({ OUTRANK_WATCHES_PER_CALLER: '' })).toBe(20);
  });

  it('takes a positive whole number', () => {
    expect(watchesPerCaller({ OUTRANK_WATCHES_PER_CALLER: '150' })).toBe(150);
  });

  it.each(['0', '-3', '2.5', 'many'])('refuses %s, naming the variable and the rule', (value) => {
    expect(() => watchesPerCaller({ OUTRANK_WATCHES_PER_CALLER: value })).toThrow(`OUTRANK_WATCHES_PER_CALLER: must be a positive integer, not "${value}"`);
  });
});
