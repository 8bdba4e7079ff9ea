import { describe, expect, it } from 'vitest';
import { isPlainObject, sameJson } from '../../../lib/api/plain-object';

describe('isPlainObject', () => {
  it.each([
    [{}, true],
    [{ a: 1 }, true],
    [[], false],
    [null, false],
    ['text', false],
    [1, false],
  ])('%j is a plain object: %s', (value, expected) => {
    expect(isPlainObject(value)).toBe(expected);
  });
});

describe('sameJson', () => {
  it.each([
    ['equal numbers', 1, 1, true],
    ['different numbers', 1, 2, false],
    ['a number and its text', 1, '1', false],
    ['members in another order', { a: 1, b: { c: [1, 2], d: 'x' } }, { b: { d: 'x', c: [1, 2] }, a: 1 }, true],
    ['a member undefined and one left out', { a: 1, b: undefined }, { a: 1 }, true],
    ['a member left out and one undefined', { a: 1 }, { a: 1, b: undefined }, true],
    ['a member null and one left out', { a: 1, b: null }, { a: 1 }, false],
    ['a different member value', { a: { b: 1 } }, { a: { b: 2 } }, false],
    ['a member more', { a: 1 }, { a: 1, b: 2 }, false],
    ['arrays in another order', [1, 2], [2, 1], false],
    ['arrays of another length', [1], [1, 1], false],
    ['an array and an object', [], {}, false],
    ['an object and null', {}, null, false],
  ])('%s', (_name, left, right, expected) => {
    expect(sameJson(left, right)).toBe(expected);
    expect(sameJson(right, left)).toBe(expected);
  });
});
