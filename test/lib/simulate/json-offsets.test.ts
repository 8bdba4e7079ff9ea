import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { composeDocuments } from '../../../lib/api/nesting-depth';
import { jsonOffsets } from '../../../lib/simulate/json-offsets';
import { offsetOf } from '../../../lib/simulate/source-lines';

/** Every path to a value within `value`, the root's included. */
function pathsWithin(value: unknown, prefix: PropertyKey[] = []): PropertyKey[][] {
  const below = Array.isArray(value)
    ? value.flatMap((item, index) => pathsWithin(item, [...prefix, index]))
    : typeof value === 'object' && value !== null
      ? Object.entries(value).flatMap(([key, item]) => pathsWithin(item, [...prefix, key]))
      : [];
  return [prefix, ...below];
}

/** Where offsetOf finds each path in the text composed as YAML: what jsonOffsets must agree with. */
function yamlOffsets(text: string, paths: ReadonlyArray<readonly PropertyKey[]>): number[] {
  const [document] = composeDocuments(text, {});
  return paths.map((path) => offsetOf(document!, path));
}

describe('jsonOffsets', () => {
  const text = '{\n  "steps": [\n    {"wait": "1m"},\n    {"apply": [{"kind": "Deployment", "metadata": {"name": "a\\"}b"}}, 7]}\n  ],\n  "note": "[{"\n}';

  it('finds a mapping field at its key and a list item at its start', () => {
    expect(jsonOffsets(text, [[], ['steps'], ['steps', 1], ['steps', 1, 'apply', 0, 'metadata', 'name'], ['steps', 1, 'apply', 1], ['note']])).toEqual([
      0,
      text.indexOf('"steps"'),
      text.indexOf('{"apply"'),
      text.indexOf('"name"'),
      text.indexOf('7]'),
      text.indexOf('"note"'),
    ]);
  });

  it('points a field that is not there at the nearest enclosing one, as in a YAML document', () => {
    expect(jsonOffsets(text, [['steps', 0, 'apply'], ['steps', 5], ['missing', 'deeper'], ['steps', 'apply']])).toEqual([
      text.indexOf('{"wait"'),
      text.indexOf('"steps"'),
      0,
      text.indexOf('"steps"'),
    ]);
  });

  it('finds the fields of a key written twice in its last copy, the one JSON.parse keeps', () => {
    const twice = '{"a": {"b": 1, "d": {"e": 2}}, "a": {"c": 2}}';
    expect(JSON.parse(twice)).toEqual({ a: { c: 2 } });
    const last = twice.lastIndexOf('"a"');
    expect(jsonOffsets(twice, [['a'], ['a', 'c'], ['a', 'b'], ['a', 'd', 'e']])).toEqual([last, twice.indexOf('"c"'), last, last]);
  });

  it('agrees with the offsets in the text composed as YAML, compact or indented, for fields there and not', () => {
    const value = fc.jsonValue({ maxDepth: 4, stringUnit: 'grapheme' }).filter((json) => typeof json === 'object' && json !== null);
    fc.assert(
      fc.property(value, fc.constantFrom(undefined, 2, '\t'), fc.array(fc.oneof(fc.nat(4), fc.constantFrom('a', 'b', '', '"')), { maxLength: 3 }), (json, indent, missing) => {
        const written = ` ${JSON.stringify(json, null, indent)}\n`;
        const paths = pathsWithin(json).flatMap((path) => [path, [...path, ...missing]]);
        expect(jsonOffsets(written, paths)).toEqual(yamlOffsets(written, paths));
      }),
      { numRuns: 400 },
    );
  });
});
