import { describe, expect, it } from 'vitest';
import { controllerOf, controllerRef, isControlledBy } from '../../../lib/api/owner-reference';

const TEMPLATE = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', uid: 'uid-1' } };
const owned = (references: unknown[]) => ({ metadata: { ownerReferences: references as never } });

describe("a binding's controller is its template, as Karmada's detector makes it (metav1.NewControllerRef)", () => {
  it('names the template by apiVersion, kind, name and uid, as controller, blocking its deletion', () => {
    expect(controllerRef(TEMPLATE)).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'uid-1', controller: true, blockOwnerDeletion: true });
  });

  it('names a template stored without a uid without one', () => {
    expect(controllerRef({ ...TEMPLATE, metadata: { name: 'web' } })).not.toHaveProperty('uid');
  });

  it('finds the controller among the owners', () => {
    const other = { apiVersion: 'v1', kind: 'ConfigMap', name: 'c', uid: 'x' };
    expect(controllerOf(owned([other, controllerRef(TEMPLATE)]))).toEqual(controllerRef(TEMPLATE));
    expect(controllerOf(owned([other]))).toBeUndefined();
  });
});

describe("garbage: an object whose controller no longer exists, as Kubernetes' collector judges it by uid", () => {
  const binding = owned([controllerRef(TEMPLATE)]);

  it.each<[string, typeof TEMPLATE | undefined, boolean]>([
    ['the template as it is', TEMPLATE, true],
    ['no template of that name', undefined, false],
    ['a template created again under the name (another uid)', { ...TEMPLATE, metadata: { name: 'web', uid: 'uid-2' } }, false],
    ['a template of that name stored without a uid', { ...TEMPLATE, metadata: { name: 'web' } } as typeof TEMPLATE, true],
  ])('%s: controlled %s', (_, candidate, controlled) => {
    expect(isControlledBy(binding, candidate)).toBe(controlled);
  });

  it('a binding stored before bindings had owner references belongs to the template of its name', () => {
    expect(isControlledBy(owned([]), TEMPLATE)).toBe(true);
    expect(isControlledBy({ metadata: {} }, undefined)).toBe(false);
  });
});
