/**
 * A frozen deep copy of JSON-like data, so that shared in-memory state cannot be changed behind the store's
 * back. Parts that are frozen already are shared rather than copied: everything the in-memory store and
 * queues hand out is frozen, so an update built by spreading a stored object copies only what it changed.
 */
export function frozenCopy<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy)) as T;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = frozenCopy((value as Record<string, unknown>)[key]);
  return Object.freeze(copy) as T;
}

/**
 * Freezes JSON-like data where it is, deeply, for data handed over whole (nobody else keeps a reference
 * to change it): the same guarantee as frozenCopy without a second copy of a large state.
 */
export function frozenInPlace<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  // Every stored object passes here: walked without an array of its values per level.
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) frozenInPlace(value[index]);
  } else {
    for (const key in value) frozenInPlace(value[key]);
  }
  return Object.freeze(value);
}
