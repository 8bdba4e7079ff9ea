import { createHash } from 'node:crypto';

/** A binding's name must be a DNS subdomain name, as every Kubernetes object name: at most 253 characters. */
export const MAX_BINDING_NAME_LENGTH = 253;

/** Hex digits of the SHA-256 that stand for the part of a long name that is cut: 64 bits. */
const HASH_DIGITS = 16;

/**
 * The name of the binding that propagates a template: `<template name>-<kind>` in lowercase, every ":"
 * of the name (RBAC objects' names carry them: "system:aggregate-to-view") made a ".", as Karmada's
 * names.GenerateBindingName makes it (pkg/util/names/names.go).
 *
 * Karmada does not shorten, so a template named with 253 characters gets a binding name that no
 * Kubernetes object may have. Outrank differs on purpose there, and only there: a name that would be
 * longer than 253 characters keeps the start of the template name and the kind, and ends in
 * `.<16 hex digits>` of the SHA-256 of the whole name — `<start>-<kind>.<hash>`, 253 characters.
 * The last dot-separated part of a name made whole always holds the "-" before the kind, that of a
 * shortened one never does, so a shortened name is never the name of another template's binding;
 * two long names that share their start differ in the hash.
 */
export function bindingName(name: string, kind: string): string {
  const templateName = name.replaceAll(':', '.');
  const whole = `${templateName}-${kind}`.toLowerCase();
  if (whole.length <= MAX_BINDING_NAME_LENGTH) return whole;
  const hash = createHash('sha256').update(whole).digest('hex').slice(0, HASH_DIGITS);
  const suffix = `-${kind.toLowerCase()}.${hash}`;
  // A template name starts with an alphanumeric, so something is left once a cut "-" or "." is trimmed.
  const start = templateName.slice(0, MAX_BINDING_NAME_LENGTH - suffix.length).replace(/[-.]+$/, '');
  return `${start}${suffix}`.toLowerCase();
}
