import { describe, expect, it } from 'vitest';
import { MAX_NESTING_DEPTH, nestedDeeperThan } from '../../../lib/api/nesting-depth';

/** Objects and arrays alternating, `levels` deep (the outermost is level 1), a string at the bottom. */
function nested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let level = levels; level >= 1; level -= 1) value = level % 2 === 0 ? [1, value, null] : { a: true, b: value };
  return value;
}

describe('nestedDeeperThan', () => {
  it('counts objects and arrays alike, the outermost as level 1, up to the limit', () => {
    expect(nestedDeeperThan(nested(MAX_NESTING_DEPTH))).toBe(false);
    expect(nestedDeeperThan(nested(MAX_NESTING_DEPTH + 1))).toBe(true);
    expect(nestedDeeperThan(nested(3), 3)).toBe(false);
    expect(nestedDeeperThan(nested(4), 3)).toBe(true);
  });

  it('does not count values that are not objects, nor empty collections past their own level', () => {
    for (const value of ['text', 7, true, null, undefined]) expect(nestedDeeperThan(value, 0)).toBe(false);
    expect(nestedDeeperThan({}, 1)).toBe(false);
    expect(nestedDeeperThan({ a: {} }, 1)).toBe(true);
    expect(nestedDeeperThan([[]], 1)).toBe(true);
    expect(nestedDeeperThan({ a: 1, b: 'x', c: [1, 2] }, 2)).toBe(false);
  });

  it('finds the deep branch among many shallow ones, and measures far deeper values without recursing', () => {
    const wide = { items: Array.from({ length: 1_000 }, (_, index) => ({ index })) };
    expect(nestedDeeperThan(wide, 3)).toBe(false);
    expect(nestedDeeperThan({ ...wide, deep: nested(5) }, 3)).toBe(true);
    expect(nestedDeeperThan(nested(100_000))).toBe(true);
  });
});
