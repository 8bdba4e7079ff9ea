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

  it('writes a long array past the levels walked a thousand elements to a piece, the same text', () => {
    const elements = Array.from({ length: 2_500 }, (_, i) =>
      i % 5 === 0 ? undefined : i % 5 === 1 ? { name: `b-${i}`, clusters: [{ name: 'm', replicas: i }], at: new Date(i) } : i % 5 === 2 ? [i, 'x\ny'] : i % 5 === 3 ? () => i : i,
    );
    for (const [value, levels, pieces] of [
      [elements, 1, 3 + 2],
      [{ bindings: elements, count: 1 }, 2, 3 + 7],
      [[{ deeper: elements }], 3, 3 + 8],
    ] as const) {
      const chunks = [...jsonChunks(value, levels)];
      expect(chunks.join('')).toBe(JSON.stringify(value, null, 2));
      expect(chunks).toHaveLength(pieces);
    }
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
