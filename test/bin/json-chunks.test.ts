/** `outrank simulate -o json` writes its result in pieces: together they must be JSON.stringify(value, null, 2), byte for byte. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonChunks } from '../../bin/commands/json-chunks';

describe('jsonChunks', () => {
  it('joins to JSON.stringify(value, null, 2) for any JSON value, at any depth walked', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 4 }), (value, levels) => {
        expect([...jsonChunks(value, levels)].join('')).toBe(JSON.stringify(value, null, 2));
      }),
      { numRuns: 2_000 },
    );
  });

  it('leaves out or nulls what has no JSON form, and serializes toJSON as JSON.stringify does', () => {
    const value = {
      kept: 1,
      skipped: undefined,
      method: () => 1,
      list: [undefined, () => 1, Symbol('s'), 2, { nested: undefined, when: new Date(0) }],
      empty: { gone: undefined },
      none: [],
      text: 'line\nbreak',
    };
    for (const levels of [0, 1, 2, 3]) expect([...jsonChunks(value, levels)].join('')).toBe(JSON.stringify(value, null, 2));
  });
});
