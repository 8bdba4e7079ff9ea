import { describe, expect, it } from 'vitest';
import { InvalidObjectError } from '../../../lib/api/invalid-object-error';
import { parseManifests } from '../../../lib/api/manifest';

function rejection(text: string): InvalidObjectError {
  try {
    parseManifests(text);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidObjectError);
    return error as InvalidObjectError;
  }
  throw new Error('expected the manifest to be rejected');
}

describe('parseManifests', () => {
  it.each([
    ['one YAML document', 'kind: A\nmetadata: {name: a}\n', [{ kind: 'A', metadata: { name: 'a' } }]],
    ['several YAML documents', 'kind: A\n---\nkind: B\n', [{ kind: 'A' }, { kind: 'B' }]],
    ['empty documents are skipped', '---\n---\nkind: A\n---\n', [{ kind: 'A' }]],
    ['a comment-only document is skipped', '# nothing\n---\nkind: A\n', [{ kind: 'A' }]],
    ['an empty text', '', []],
    ['a JSON object', '{"kind": "A", "spec": {"replicas": 2}}', [{ kind: 'A', spec: { replicas: 2 } }]],
    ['a JSON array', '[{"kind": "A"}, {"kind": "B"}]', [{ kind: 'A' }, { kind: 'B' }]],
    ['a List', 'apiVersion: v1\nkind: List\nitems:\n  - kind: A\n  - kind: B\n', [{ kind: 'A' }, { kind: 'B' }]],
    ['a typed List', '{"kind": "DeploymentList", "items": [{"kind": "Deployment"}]}', [{ kind: 'Deployment' }]],
    ['Lists and objects in order', 'kind: A\n---\nkind: List\nitems: [{kind: B}]\n---\nkind: C\n', [{ kind: 'A' }, { kind: 'B' }, { kind: 'C' }]],
    ['quantities stay as written', 'cpu: 500m\nmemory: 1.5\nreplicas: 3\n', [{ cpu: '500m', memory: 1.5, replicas: 3 }]],
    ['a few small aliases', 'a: &x {k: 1}\nb: *x\nc: *x\n', [{ a: { k: 1 }, b: { k: 1 }, c: { k: 1 } }]],
  ])('reads %s', (_, text, expected) => {
    expect(parseManifests(text)).toEqual(expected);
  });

  it('refuses an alias bomb', () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (const [name, previous] of [['b', 'a'], ['c', 'b'], ['d', 'c'], ['e', 'd'], ['f', 'e'], ['g', 'f']] as const) {
      lines.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`);
    }
    const error = rejection(lines.join('\n'));
    expect(error.causes[0]?.message).toMatch(/^could not be read: .*alias/i);
    expect(error.code).toBe(400);
  });

  it.each([
    ['invalid YAML', 'a: [\n', /^is not valid YAML or JSON/],
    ['duplicate keys', 'a: 1\na: 2\n', /^is not valid YAML or JSON: .*unique/],
    ['invalid JSON', '{"a": [1}', /^is not valid YAML or JSON/],
    ['too many documents', 'a: 1\n---\n'.repeat(1001), /^must hold at most 1000 documents/],
  ])('rejects %s', (_, text, message) => {
    expect(rejection(text).causes[0]?.message).toMatch(message);
  });

  /** Every way YAML nests, each `depth` levels deep. */
  const NESTINGS: ReadonlyArray<[string, (depth: number) => string]> = [
    ['JSON arrays', (depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`],
    ['JSON objects', (depth) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`],
    ['YAML flow mappings', (depth) => `${'{a: '.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`],
    ['YAML block mappings', (depth) => `${Array.from({ length: depth }, (_, level) => `${' '.repeat(level)}a:`).join('\n')} 1\n`],
    ['compact block sequences', (depth) => `${'- '.repeat(depth)}x\n`],
  ];

  it.each(NESTINGS)('reads %s nested 100 levels deep, and refuses them 101 deep, naming the rule', (_, nested) => {
    expect(parseManifests(nested(100))).toHaveLength(1);
    const error = rejection(nested(101));
    expect(error.causes).toEqual([{ field: '<root>', message: 'must not be nested more than 100 levels deep' }]);
    expect(error.code).toBe(400);
  });

  it.each(NESTINGS.filter(([name]) => name !== 'YAML block mappings'))('refuses %s ten thousand levels deep before composing them can exhaust the stack', (_, nested) => {
    expect(rejection(nested(10_000)).causes[0]?.message).toBe('must not be nested more than 100 levels deep');
  });

  it('refuses a document whose aliases nest what it writes within the limit deeper than it', () => {
    const lines = [`a0: &a0 ${'['.repeat(90)}${']'.repeat(90)}`, `a1: &a1 ${'['.repeat(20)}*a0${']'.repeat(20)}`];
    expect(rejection(lines.join('\n')).causes[0]?.message).toBe('must not be nested more than 100 levels deep');
  });

  it('rejects a text over the size limit and accepts one at it', () => {
    const limit = 1024 * 1024;
    const atLimit = `a: "${'x'.repeat(limit - 6)}"\n`;
    expect(Buffer.byteLength(atLimit)).toBe(limit);
    expect(parseManifests(atLimit)).toHaveLength(1);
    expect(rejection(`${atLimit} `).causes[0]?.message).toBe(`must be at most ${limit} bytes`);
  });

  it('counts the limit in UTF-8 bytes, not characters', () => {
    const text = `a: "${'é'.repeat(600 * 1024)}"`;
    expect(text.length).toBeLessThan(1024 * 1024);
    expect(rejection(text).causes[0]?.message).toMatch(/^must be at most/);
  });
});

describe('parseManifests reads YAML 1.1 as kubectl does', () => {
  it('takes yes and on as booleans', () => {
    expect(parseManifests('globalDefault: yes\nenabled: on\n')).toEqual([{ globalDefault: true, enabled: true }]);
  });
});
