import type { ObjectRef } from '../api/kinds';

/** Any stored object: apiVersion, kind and metadata with a name, as Kubernetes writes objects. */
export interface StoredObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly resourceVersion?: string };
}

/**
 * One conditional write. Every write is a compare-and-set on the object's resourceVersion, so a lost
 * update is impossible: `expectedVersion` is the version the writer read (null: must not exist yet).
 */
export type Write =
  | { readonly op: 'put'; readonly object: StoredObject; readonly expectedVersion: string | null }
  | { readonly op: 'delete'; readonly ref: ObjectRef; readonly expectedVersion: string }
  | { readonly op: 'check'; readonly ref: ObjectRef; readonly expectedVersion: string | null };

/** Raised when a condition of a write does not hold; nothing of the transaction was written. */
export class ConflictError extends Error {
  constructor(readonly refs: readonly ObjectRef[]) {
    super(`conflict: ${refs.map((r) => `${r.kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name}`).join(', ')} changed since read`);
    this.name = 'ConflictError';
  }
}

/**
 * The state port. `transact` applies all writes or none (a preemption commits the preemptor, its
 * victims and the cluster allocations together) and returns the written objects with their new
 * resourceVersions, in the order given (deletes and checks give undefined).
 */
export interface ObjectStore {
  get<T extends StoredObject>(ref: ObjectRef): Promise<T | undefined>;
  list<T extends StoredObject>(group: string, kind: string, namespace?: string): Promise<T[]>;
  transact(writes: readonly Write[]): Promise<Array<StoredObject | undefined>>;
}
