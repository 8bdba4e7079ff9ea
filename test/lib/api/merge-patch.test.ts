import { describe, expect, it } from 'vitest';
import { applyMergePatch } from '../../../lib/api/merge-patch';

describe('applyMergePatch (RFC 7386, appendix A)', () => {
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [['a', 'b'], ['c', 'd'], ['c', 'd']],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('%j patched with %j → %j', (target, patch, expected) => {
    expect(applyMergePatch(target, patch)).toEqual(expected);
  });

  it('does not modify the target', () => {
    const target = { status: { conditions: [{ type: 'Ready', status: 'True' }] }, spec: { a: 1 } };
    const copy = structuredClone(target);
    applyMergePatch(target, { status: { conditions: [{ type: 'Ready', status: 'False' }] }, spec: null });
    expect(target).toEqual(copy);
  });

  it('treats "__proto__" as an ordinary member name', () => {
    const result = applyMergePatch({ a: 1 }, JSON.parse('{"__proto__": {"polluted": true}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.keys(result)).toEqual(['a', '__proto__']);
    expect(result.polluted).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(result, '__proto__')?.value).toEqual({ polluted: true });
    expect(JSON.stringify(result)).toBe('{"a":1,"__proto__":{"polluted":true}}');
  });
});
