import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import { fieldPath } from '../../../lib/api/invalid-object-error';
import { duplicateFields } from '../../../lib/http/duplicate-fields';

/** The same question answered on YAML's syntax tree, which keeps every key of a JSON text (JSON is YAML). */
function byYamlSyntaxTree(text: string): string[] {
  const found: string[] = [];
  const visit = (node: unknown, path: readonly PropertyKey[]): void => {
    if (isSeq(node)) node.items.forEach((item, index) => visit(item, [...path, index]));
    if (!isMap(node)) return;
    const seen = new Set<string>();
    for (const pair of node.items) {
      const name = String(isScalar(pair.key) ? pair.key.value : pair.key);
      if (seen.has(name)) found.push(fieldPath([...path, name]));
      seen.add(name);
      visit(pair.value as Node | null, [...path, name]);
    }
  };
  visit(parseDocument(text, { uniqueKeys: false }).contents, []);
  return found;
}

describe('duplicateFields: the fields a JSON body names twice (kube-apiserver strict decoding)', () => {
  it.each([
    ['none', '{"a":1,"b":{"a":2}}', []],
    ['at the top', '{"kind":"A","kind":"B"}', ['kind']],
    ['nested', '{"metadata":{"name":"x","labels":{"a":"1","a":"2"}}}', ['metadata.labels.a']],
    ['in a list item', '{"spec":{"containers":[{"name":"a"},{"name":"b","name":"c"}]}}', ['spec.containers[1].name']],
    ['three times', '{"a":1,"a":2,"a":3}', ['a', 'a']],
    ['a key written with escapes', '{"k\\u0065y":1,"key":2}', ['key']],
    ['quotes, brackets and commas inside strings', '{"a":"}{,[\\"","a":"],"}', ['a']],
    ['an array of arrays', '[[{"x":1,"x":2}],[]]', ['[0][0].x']],
    ['equal keys in sibling objects', '[{"a":1},{"a":1}]', []],
  ])('%s', (_, text, expected) => {
    expect(duplicateFields(text)).toEqual(expected);
    expect(byYamlSyntaxTree(text)).toEqual(expected);
  });

  it('finds what the syntax tree finds, for any JSON with keys repeated at any depth', () => {
    // Objects as key–value lists, so that keys repeat; written as JSON text by hand.
    type Value = null | number | string | boolean | Value[] | { readonly entries: ReadonlyArray<readonly [string, Value]> };
    const { value } = fc.letrec<{ value: Value }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.constant(null),
        fc.integer(),
        fc.string({ maxLength: 6 }),
        fc.boolean(),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.record({ entries: fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'k"y', 'x\\y', 'é'), tie('value')), { maxLength: 5 }) }),
      ),
    }));
    const write = (v: Value): string =>
      v === null || typeof v !== 'object'
        ? JSON.stringify(v)
        : Array.isArray(v)
          ? `[${v.map(write).join(',')}]`
          : `{${v.entries.map(([key, inner]) => `${JSON.stringify(key)}:${write(inner)}`).join(', ')}}`;
    fc.assert(
      fc.property(value, (generated) => {
        const text = write(generated);
        expect(duplicateFields(text)).toEqual(byYamlSyntaxTree(text));
      }),
      { numRuns: 500 },
    );
  });
});
