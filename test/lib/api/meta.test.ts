import { describe, expect, it } from 'vitest';
import {
  condition,
  int32,
  isQualifiedName,
  labels,
  labelSelector,
  labelSelectorRequirement,
  labelValue,
  namespaceName,
  objectMeta,
  objectName,
  qualifiedName,
} from '../../../lib/api/meta';

describe('objectName (RFC 1123 subdomain)', () => {
  it.each([
    ['web', true],
    ['web-1', true],
    ['a.b.c', true],
    ['0abc', true],
    ['a'.repeat(253), true],
    ['a'.repeat(254), false],
    ['', false],
    ['Web', false],
    ['-web', false],
    ['web-', false],
    ['a..b', false],
    ['a_b', false],
  ])('%j valid: %s', (name, valid) => {
    expect(objectName.safeParse(name).success).toBe(valid);
  });
});

describe('namespaceName (RFC 1123 label)', () => {
  it.each([
    ['default', true],
    ['kube-system', true],
    ['a'.repeat(63), true],
    ['a'.repeat(64), false],
    ['a.b', false],
    ['', false],
    ['Default', false],
  ])('%j valid: %s', (name, valid) => {
    expect(namespaceName.safeParse(name).success).toBe(valid);
  });
});

describe('isQualifiedName (label keys)', () => {
  it.each([
    ['app', true],
    ['App_Name.v1', true],
    ['kai.scheduler/preemptibility', true],
    ['example.com/a-b', true],
    ['a'.repeat(63), true],
    ['a'.repeat(64), false],
    [`${'a'.repeat(253)}/x`, true],
    [`${'a'.repeat(254)}/x`, false],
    ['', false],
    ['/x', false],
    ['x/', false],
    ['a/b/c', false],
    ['Example.com/x', false],
    ['-app', false],
    ['app-', false],
    ['not a key', false],
  ])('%j: %s', (value, valid) => {
    expect(isQualifiedName(value)).toBe(valid);
    expect(qualifiedName.safeParse(value).success).toBe(valid);
  });
});

describe('labelValue', () => {
  it.each([
    ['', true],
    ['v1', true],
    ['a-b_c.d', true],
    ['a'.repeat(63), true],
    ['a'.repeat(64), false],
    ['-a', false],
    ['a b', false],
  ])('%j valid: %s', (value, valid) => {
    expect(labelValue.safeParse(value).success).toBe(valid);
  });

  it('labels check both keys and values', () => {
    expect(labels.safeParse({ 'app.kubernetes.io/name': 'web' }).success).toBe(true);
    expect(labels.safeParse({ 'bad key': 'web' }).success).toBe(false);
    expect(labels.safeParse({ app: 'bad value' }).success).toBe(false);
  });
});

describe('labelSelectorRequirement', () => {
  it.each([
    [{ key: 'a', operator: 'In', values: ['x'] }, undefined],
    [{ key: 'a', operator: 'NotIn', values: ['x', 'y'] }, undefined],
    [{ key: 'a', operator: 'Exists' }, undefined],
    [{ key: 'a', operator: 'DoesNotExist', values: [] }, undefined],
    [{ key: 'a', operator: 'In' }, 'must be non-empty when operator is In'],
    [{ key: 'a', operator: 'NotIn', values: [] }, 'must be non-empty when operator is NotIn'],
    [{ key: 'a', operator: 'Exists', values: ['x'] }, 'must be empty when operator is Exists'],
    [{ key: 'a', operator: 'DoesNotExist', values: ['x'] }, 'must be empty when operator is DoesNotExist'],
  ])('%j → %s', (requirement, message) => {
    const result = labelSelectorRequirement.safeParse(requirement);
    expect(result.success).toBe(message === undefined);
    if (!result.success) {
      expect(result.error.issues).toEqual([expect.objectContaining({ path: ['values'], message })]);
    }
  });

  it('rejects unknown operators and unknown fields', () => {
    expect(labelSelectorRequirement.safeParse({ key: 'a', operator: 'Gt', values: ['1'] }).success).toBe(false);
    expect(labelSelector.safeParse({ matchLabels: {}, matchFields: [] }).success).toBe(false);
  });
});

describe('int32', () => {
  it.each([
    [0, true],
    [-2_147_483_648, true],
    [2_147_483_647, true],
    [2_147_483_648, false],
    [-2_147_483_649, false],
    [1.5, false],
    ['1', false],
  ])('%j valid: %s', (value, valid) => {
    expect(int32.safeParse(value).success).toBe(valid);
  });
});

describe('objectMeta and condition', () => {
  it('rejects unknown metadata fields', () => {
    const result = objectMeta.safeParse({ name: 'x', finalizer: 'y' });
    expect(result.success).toBe(false);
  });

  it.each([
    [{ type: 'Ready', status: 'True' }, true],
    [{ type: 'Ready', status: 'Unknown', reason: 'Probe' }, true],
    [{ type: 'Ready', status: 'true' }, false],
    [{ type: '', status: 'True' }, false],
    [{ type: 'Ready', status: 'True', observedGeneration: -1 }, false],
  ])('condition %j valid: %s', (value, valid) => {
    expect(condition.safeParse(value).success).toBe(valid);
  });
});
