import { PRIORITY_CLASS } from '../api/kinds';
import type { PriorityClass } from '../api/priority-class';
import { apiGroupOf } from '../api/resource-template';
import type { ObjectStore } from '../ports/object-store';

/** Reads one PriorityClass by name: whether it exists and how it is labelled decide who may use it. */
export type PriorityClassLookup = (name: string) => Promise<PriorityClass | undefined>;

export function storedPriorityClasses(store: ObjectStore): PriorityClassLookup {
  return (name) => store.get<PriorityClass>({ group: apiGroupOf(PRIORITY_CLASS.apiVersion), kind: PRIORITY_CLASS.kind, namespace: '', name });
}
