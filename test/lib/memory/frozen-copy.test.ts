import { describe, expect, it } from 'vitest';
import { frozenCopy, frozenInPlace } from '../../../lib/memory/frozen-copy';

describe('frozenCopy', () => {
  it('copies what is not frozen and freezes every level of the copy', () => {
    const original = { spec: { replicas: 2, clusters: [{ name: 'm1' }] }, labels: { a: 'b' } };
    const copy = frozenCopy(original);
    expect(copy).toEqual(original);
    expect(copy).not.toBe(original);
    expect(copy.spec.clusters[0]).not.toBe(original.spec.clusters[0]);
    for (const part of [copy, copy.spec, copy.spec.clusters, copy.spec.clusters[0], copy.labels]) expect(Object.isFrozen(part)).toBe(true);
    original.spec.clusters[0]!.name = 'changed';
    expect(copy.spec.clusters[0]!.name).toBe('m1');
    expect(Object.isFrozen(original.spec)).toBe(false);
  });

  it('shares the parts that are frozen already', () => {
    const stored = frozenCopy({ spec: { replicas: 2 }, status: { conditions: [{ type: 'Scheduled' }] } });
    const update = frozenCopy({ ...stored, spec: { replicas: 3 } });
    expect(update.status).toBe(stored.status);
    expect(update.spec).toEqual({ replicas: 3 });
    expect(Object.isFrozen(update)).toBe(true);
  });

  it('keeps members that are undefined, and values that are not objects, as they are', () => {
    expect(frozenCopy({ a: undefined, b: null, c: 0, d: '' })).toEqual({ a: undefined, b: null, c: 0, d: '' });
    expect(frozenCopy('text')).toBe('text');
    expect(frozenCopy(null)).toBe(null);
  });
});

describe('frozenInPlace', () => {
  it('freezes every level where it is, copying nothing', () => {
    const original = { spec: { replicas: 2, clusters: [{ name: 'm1' }] }, labels: { a: 'b' }, none: null };
    const clusters = original.spec.clusters;
    expect(frozenInPlace(original)).toBe(original);
    expect(original.spec.clusters).toBe(clusters);
    for (const part of [original, original.spec, clusters, clusters[0], original.labels]) expect(Object.isFrozen(part)).toBe(true);
    expect(() => {
      clusters[0]!.name = 'changed';
    }).toThrow(TypeError);
  });
});
