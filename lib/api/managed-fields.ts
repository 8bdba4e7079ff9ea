import { isDeepStrictEqual } from 'node:util';
import { isPlainObject } from './plain-object';

/**
 * Field ownership as Kubernetes' structured-merge rules keep it in metadata.managedFields: each field
 * manager owns the fields it last set, as a FieldsV1 set (`f:<field>` for a field or map key,
 * `k:{"name":"main"}` for an item of a list merged by key, `.` for the item itself). A server-side
 * apply conflicts where another manager owns a field it sets to another value; any other write takes
 * the fields it changes from their owners.
 *
 * Tracked: metadata.labels and metadata.annotations, and everything under the object's other
 * top-level fields except status. Lists are atomic (one field) except those merged by key — the
 * containers and init containers of a pod template, by name — whose items are owned one by one.
 */

export interface ManagedFieldsEntry {
  readonly manager: string;
  readonly operation: 'Apply' | 'Update';
  readonly apiVersion: string;
  readonly time: string;
  readonly fieldsType: 'FieldsV1';
  readonly fieldsV1: FieldsV1;
}

export type FieldsV1 = { readonly [segment: string]: FieldsV1 };

/** A set of field paths, each path its segments as JSON (so that sets compare by value). */
export type FieldSet = ReadonlySet<string>;

type Segment = string;

/** The key of the lists merged by key, by the path of field names leading to them. */
const KEYED_LISTS: ReadonlyMap<string, string> = new Map([
  ['spec.template.spec.containers', 'name'],
  ['spec.template.spec.initContainers', 'name'],
]);

const UNTRACKED_TOP_LEVEL = new Set(['apiVersion', 'kind', 'status', 'metadata']);
const TRACKED_METADATA = ['labels', 'annotations'];

function fieldNamesOf(path: readonly Segment[]): string {
  return path.filter((segment) => segment.startsWith('f:')).map((segment) => segment.slice(2)).join('.');
}

function itemSegment(key: string, item: unknown): Segment | undefined {
  if (!isPlainObject(item) || typeof item[key] !== 'string') return undefined;
  return `k:${JSON.stringify({ [key]: item[key] })}`;
}

function collect(value: unknown, path: readonly Segment[], into: Set<string>): void {
  if (isPlainObject(value) && Object.keys(value).length > 0) {
    for (const [field, child] of Object.entries(value)) collect(child, [...path, `f:${field}`], into);
    return;
  }
  const key = Array.isArray(value) ? KEYED_LISTS.get(fieldNamesOf(path)) : undefined;
  if (key !== undefined && (value as unknown[]).every((item) => itemSegment(key, item) !== undefined)) {
    for (const item of value as unknown[]) {
      const itemPath = [...path, itemSegment(key, item)!];
      into.add(JSON.stringify([...itemPath, '.']));
      collect(item, itemPath, into);
    }
    return;
  }
  into.add(JSON.stringify(path));
}

/** The fields an object (or an applied configuration) sets. */
export function fieldsOf(object: Record<string, unknown>): Set<string> {
  const fields = new Set<string>();
  for (const [field, value] of Object.entries(object)) if (!UNTRACKED_TOP_LEVEL.has(field)) collect(value, [`f:${field}`], fields);
  const metadata = isPlainObject(object.metadata) ? object.metadata : {};
  for (const field of TRACKED_METADATA) if (metadata[field] !== undefined) collect(metadata[field], ['f:metadata', `f:${field}`], fields);
  return fields;
}

export function toFieldsV1(fields: FieldSet): FieldsV1 {
  const root: Record<string, Record<string, unknown>> = {};
  for (const encoded of [...fields].sort()) {
    let node: Record<string, unknown> = root;
    for (const segment of JSON.parse(encoded) as Segment[]) node = (node[segment] ??= {}) as Record<string, unknown>;
  }
  return root as FieldsV1;
}

export function fromFieldsV1(fieldsV1: unknown): Set<string> {
  const fields = new Set<string>();
  const visit = (node: unknown, path: readonly Segment[]): void => {
    if (!isPlainObject(node)) return;
    const entries = Object.entries(node);
    if (entries.length === 0 && path.length > 0) fields.add(JSON.stringify(path));
    for (const [segment, child] of entries) visit(child, [...path, segment]);
  };
  visit(fieldsV1, []);
  return fields;
}

function step(node: unknown, segment: Segment): unknown {
  if (segment.startsWith('f:')) return isPlainObject(node) ? node[segment.slice(2)] : undefined;
  if (!segment.startsWith('k:') || !Array.isArray(node)) return undefined;
  const [[key, value]] = Object.entries(JSON.parse(segment.slice(2)) as Record<string, unknown>) as [[string, unknown]];
  return node.find((item) => isPlainObject(item) && item[key] === value);
}

/** The value at a field path; undefined where it is not set. */
export function valueAt(object: unknown, encoded: string): unknown {
  const path = (JSON.parse(encoded) as Segment[]).filter((segment) => segment !== '.');
  return path.reduce<unknown>((node, segment) => step(node, segment), object);
}

/** Removes the field (or list item) at a path from `object`, which is changed in place. */
export function removeField(object: Record<string, unknown>, encoded: string): void {
  const path = (JSON.parse(encoded) as Segment[]).filter((segment) => segment !== '.');
  const parent = path.slice(0, -1).reduce<unknown>((node, segment) => step(node, segment), object);
  const last = path[path.length - 1]!;
  if (last.startsWith('f:') && isPlainObject(parent)) delete parent[last.slice(2)];
  if (last.startsWith('k:') && Array.isArray(parent)) {
    const item = step(parent, last);
    parent.splice(parent.indexOf(item), 1);
  }
}

/** "f:spec","f:replicas" → ".spec.replicas", as Kubernetes names a field in a conflict. */
export function fieldDisplay(encoded: string): string {
  return (JSON.parse(encoded) as Segment[])
    .filter((segment) => segment !== '.')
    .map((segment) => (segment.startsWith('f:') ? `.${segment.slice(2)}` : `[${segment.slice(2).replace(/^\{"(\w+)":/, '$1=').replace(/\}$/, '')}]`))
    .join('');
}

/** The managedFields an object carries, as entries (those that are not FieldsV1 are left out). */
export function managedFieldsOf(object: { metadata: { managedFields?: unknown } }): ManagedFieldsEntry[] {
  const entries = Array.isArray(object.metadata.managedFields) ? object.metadata.managedFields : [];
  return entries.filter((entry): entry is ManagedFieldsEntry => isPlainObject(entry) && typeof entry.manager === 'string' && entry.fieldsType === 'FieldsV1');
}

export interface Owner {
  readonly manager: string;
  readonly operation: 'Apply' | 'Update';
  readonly apiVersion: string;
  readonly time: string;
  readonly fields: Set<string>;
}

export function ownersOf(entries: readonly ManagedFieldsEntry[]): Owner[] {
  return entries.map((entry) => ({ manager: entry.manager, operation: entry.operation, apiVersion: entry.apiVersion, time: entry.time, fields: fromFieldsV1(entry.fieldsV1) }));
}

export function entriesOf(owners: readonly Owner[]): ManagedFieldsEntry[] {
  return owners
    .filter((owner) => owner.fields.size > 0)
    .map((owner) => ({ manager: owner.manager, operation: owner.operation, apiVersion: owner.apiVersion, time: owner.time, fieldsType: 'FieldsV1', fieldsV1: toFieldsV1(owner.fields) }));
}

/** The fields whose values differ between two versions of an object: set, changed or removed. */
export function changedFields(previous: Record<string, unknown> | undefined, next: Record<string, unknown>): { readonly set: Set<string>; readonly removed: Set<string> } {
  const before = previous ? fieldsOf(previous) : new Set<string>();
  const after = fieldsOf(next);
  const set = new Set([...after].filter((field) => !before.has(field) || !isDeepStrictEqual(valueAt(previous, field), valueAt(next, field))));
  const removed = new Set([...before].filter((field) => !after.has(field)));
  return { set, removed };
}
