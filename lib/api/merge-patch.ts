import { isPlainObject } from './plain-object';

/** RFC 7386 JSON merge patch: objects merge key by key, null removes a key, anything else replaces. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  const result: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else setMember(result, key, applyMergePatch(Object.hasOwn(result, key) ? result[key] : undefined, value));
  }
  return result;
}

/** Defines the member, so that a key named "__proto__" stays a key instead of replacing the prototype. */
export function setMember(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}
