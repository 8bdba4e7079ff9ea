import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bindingName, MAX_BINDING_NAME_LENGTH } from '../../../lib/api/binding-name';
import { objectName } from '../../../lib/api/meta';
import { objectNames } from '../../support/object-names';

const KINDS = ['Deployment', 'StatefulSet', 'ReplicaSet', 'Job', 'CronTab', `W${'x'.repeat(62)}`];
/** A shortened name: the start of the template name, the kind, and 16 hex digits of the hash. */
const SHORTENED = /^(.+)-([a-z0-9]+)\.([0-9a-f]{16})$/;

describe('bindingName', () => {
  it.each([
    ['web', 'Deployment', 'web-deployment'],
    ['db', 'StatefulSet', 'db-statefulset'],
    ['batch', 'Job', 'batch-job'],
    ['web.v2', 'Deployment', 'web.v2-deployment'],
    // Karmada's pkg/util/names/names_test.go, TestGenerateBindingName, "uppercase kind" and "uppercase name".
    ['pod', 'Pods', 'pod-pods'],
    ['Pod', 'pods', 'pod-pods'],
    // The same test's RBAC cases: every ":" of the name becomes ".".
    ['system:controller:tom', 'Role', 'system.controller.tom-role'],
    ['system::tom', 'ClusterRole', 'system..tom-clusterrole'],
    ['system::tt:tom', 'RoleBinding', 'system..tt.tom-rolebinding'],
    ['system:tt:tom', 'ClusterRoleBinding', 'system.tt.tom-clusterrolebinding'],
  ])('names the binding of %s %s `<template name>-<lowercase kind>`, as Karmada', (name, kind, expected) => {
    expect(bindingName(name, kind)).toBe(expected);
  });

  it('keeps a name of exactly 253 characters whole', () => {
    const name = 'a'.repeat(MAX_BINDING_NAME_LENGTH - '-deployment'.length);
    expect(bindingName(name, 'Deployment')).toBe(`${name}-deployment`);
  });

  it('shortens a longer one to 253 characters: the start of the template name, the kind, a hash of the whole', () => {
    const name = 'a'.repeat(MAX_BINDING_NAME_LENGTH);
    const shortened = bindingName(name, 'Deployment');
    expect(shortened).toHaveLength(MAX_BINDING_NAME_LENGTH);
    const [, start, kind, hash] = SHORTENED.exec(shortened)!;
    expect(name.startsWith(start!)).toBe(true);
    expect(kind).toBe('deployment');
    expect(hash).toMatch(/^[0-9a-f]{16}$/);
    // Stable across releases: the binding of an existing template keeps its name.
    expect(shortened).toBe(`${'a'.repeat(225)}-deployment.${hash}`);
    expect(hash).toBe('b2450d1a7e8c420f');
  });

  it.each([
    ['a "-"', '-'],
    ['a "."', '.'],
  ])('trims %s where the template name is cut, so that the name stays a DNS subdomain name', (_, separator) => {
    // Cut after 225 characters for a Deployment: the 225th is the separator.
    const name = `${'b'.repeat(224)}${separator}${'c'.repeat(28)}`;
    const shortened = bindingName(name, 'Deployment');
    expect(shortened.startsWith(`${'b'.repeat(224)}-deployment.`)).toBe(true);
    expect(objectName.safeParse(shortened).success).toBe(true);
  });

  it('gives long names that differ only past the cut different names', () => {
    const start = 'd'.repeat(240);
    const names = ['e', 'f', 'e.f', 'e-f', 'ef'].map((end) => bindingName(`${start}${end}`, 'StatefulSet'));
    expect(new Set(names).size).toBe(names.length);
  });

  it('makes a valid name of at most 253 characters of every valid template name and kind, the same each time', () => {
    fc.assert(
      fc.property(objectNames, fc.constantFrom(...KINDS), (name, kind) => {
        const made = bindingName(name, kind);
        expect(objectName.safeParse(made).success).toBe(true);
        expect(made).toBe(bindingName(name, kind));
        if (`${name}-${kind}`.length <= MAX_BINDING_NAME_LENGTH) expect(made).toBe(`${name}-${kind.toLowerCase()}`);
        else expect(made).toMatch(SHORTENED);
      }),
    );
  });

  it('never gives two templates of one kind the same binding, whether names are shortened or not', () => {
    fc.assert(
      fc.property(objectNames, objectNames, fc.constantFrom(...KINDS), (a, b, kind) => {
        fc.pre(a !== b);
        expect(bindingName(a, kind)).not.toBe(bindingName(b, kind));
      }),
    );
  });

  it('never names a shortened binding as a name made whole: its last dot-separated part has no "-"', () => {
    fc.assert(
      fc.property(objectNames, fc.constantFrom(...KINDS), (name, kind) => {
        const last = bindingName(name, kind).split('.').at(-1)!;
        expect(last.includes('-')).toBe(`${name}-${kind}`.length <= MAX_BINDING_NAME_LENGTH);
      }),
    );
  });
});
