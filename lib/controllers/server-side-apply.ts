import { isDeepStrictEqual } from 'node:util';
import {
  changedFields,
  entriesOf,
  fieldDisplay,
  fieldsOf,
  managedFieldsOf,
  ownersOf,
  removeField,
  valueAt,
  type Owner,
} from '../api/managed-fields';
import { isPlainObject } from '../api/plain-object';

/** Another manager owns a field the apply sets to another value. */
export interface ApplyConflict {
  readonly manager: string;
  readonly apiVersion: string;
  /** As Kubernetes names it: .spec.replicas, .spec.template.spec.containers[name="main"].image */
  readonly field: string;
}

/** A server-side apply refused for its conflicts; with force it would take those fields. Nothing was written. */
export class ApplyConflictError extends Error {
  constructor(readonly conflicts: readonly ApplyConflict[]) {
    super(`Apply failed with ${conflicts.length} conflict${conflicts.length === 1 ? '' : 's'}: ${conflicts.map((c) => `conflict with "${c.manager}" using ${c.apiVersion}: ${c.field}`).join('; ')}`);
    this.name = 'ApplyConflictError';
  }
}

export type MergeFunction = (target: unknown, patch: unknown) => unknown;

type Json = Record<string, unknown>;

function withoutManagedFields(object: Json): Json {
  const metadata = isPlainObject(object.metadata) ? object.metadata : {};
  const { managedFields: _ignored, ...rest } = metadata;
  return { ...object, metadata: rest };
}

function withManagedFields(object: Json, owners: readonly Owner[]): Json {
  const entries = entriesOf(owners);
  const metadata = isPlainObject(object.metadata) ? object.metadata : {};
  return { ...object, metadata: { ...metadata, ...(entries.length > 0 ? { managedFields: entries } : {}) } };
}

function ownerFor(owners: Owner[], manager: string, operation: Owner['operation'], apiVersion: string, time: string): Owner {
  const found = owners.find((owner) => owner.manager === manager && owner.operation === operation);
  if (found) return found;
  const created: Owner = { manager, operation, apiVersion, time, fields: new Set() };
  owners.push(created);
  return created;
}

/**
 * The object a server-side apply of `config` by `manager` makes of `live` (undefined: it creates it),
 * with its managedFields; throws ApplyConflictError when another manager owns a field the config sets
 * to another value, unless `force`, which takes those fields from them.
 */
export function serverSideApplied(live: Json | undefined, config: Json, manager: string, force: boolean, now: string, merge: MergeFunction): Json {
  const applied = withoutManagedFields(config);
  const apiVersion = String(applied.apiVersion ?? '');
  const wanted = fieldsOf(applied);
  if (!live) return withManagedFields(applied, [{ manager, operation: 'Apply', apiVersion, time: now, fields: wanted }]);

  const owners = ownersOf(managedFieldsOf(live as { metadata: { managedFields?: unknown } }));
  const others = owners.filter((owner) => !(owner.manager === manager && owner.operation === 'Apply'));
  const conflicts: ApplyConflict[] = [];
  for (const owner of others) {
    for (const field of owner.fields) {
      if (!wanted.has(field) || field.endsWith('"."]') || isDeepStrictEqual(valueAt(applied, field), valueAt(live, field))) continue;
      if (force) owner.fields.delete(field);
      else conflicts.push({ manager: owner.manager, apiVersion: owner.apiVersion, field: fieldDisplay(field) });
    }
  }
  if (conflicts.length > 0) throw new ApplyConflictError(conflicts);

  const mine = ownerFor(owners, manager, 'Apply', apiVersion, now);
  const ownedByOthers = new Set(others.flatMap((owner) => [...owner.fields]));
  const result = structuredClone(withoutManagedFields(live));
  // What this manager applied before and applies no longer goes, unless another manager owns it too.
  for (const field of mine.fields) if (!wanted.has(field) && !ownedByOthers.has(field)) removeField(result, field);
  const merged = merge(result, applied) as Json;
  const updated = owners.map((owner) => (owner === mine ? { ...owner, apiVersion, time: now, fields: wanted } : owner));
  return withManagedFields(merged, updated);
}

/**
 * The managedFields after a write other than an apply (create, update, patch) by `manager`: the
 * fields it changed become its own (operation Update) and no one else's.
 */
export function updatedManagedFields(previous: Json | undefined, next: Json, manager: string, now: string): Json {
  const owners = previous ? ownersOf(managedFieldsOf(previous as { metadata: { managedFields?: unknown } })) : [];
  const { set, removed } = changedFields(previous, next);
  if (set.size === 0 && removed.size === 0) return withManagedFields(withoutManagedFields(next), owners);
  for (const owner of owners) for (const field of [...set, ...removed]) owner.fields.delete(field);
  const mine = ownerFor(owners, manager, 'Update', String(next.apiVersion ?? ''), now);
  for (const field of set) mine.fields.add(field);
  const updated = owners.map((owner) => (owner === mine ? { ...owner, time: now } : owner));
  return withManagedFields(withoutManagedFields(next), updated);
}
