import { refKey, refOf, sameRef, type ObjectRef } from '../api/kinds';
import { ConflictError, type ObjectStore, type StoredObject, type Write } from '../ports/object-store';
import { deepFreeze } from './deep-freeze';

function kindKey(group: string, kind: string): string {
  return `${kind}.${group}`;
}

/**
 * In-memory ObjectStore with the same semantics as the DynamoDB one: versioned objects, all-or-nothing
 * conditional transactions, ConflictError naming every failed condition. Objects are frozen.
 */
export class MemoryObjectStore implements ObjectStore {
  private readonly byKind = new Map<string, Map<string, StoredObject>>();
  private version = 0;

  async get<T extends StoredObject>(ref: ObjectRef): Promise<T | undefined> {
    return this.byKind.get(kindKey(ref.group, ref.kind))?.get(refKey(ref)) as T | undefined;
  }

  async list<T extends StoredObject>(group: string, kind: string, namespace?: string): Promise<T[]> {
    const objects = [...(this.byKind.get(kindKey(group, kind))?.values() ?? [])] as T[];
    const selected = namespace === undefined ? objects : objects.filter((o) => (o.metadata.namespace ?? '') === namespace);
    return selected.sort(compareByNamespaceAndName);
  }

  async transact(writes: readonly Write[]): Promise<Array<StoredObject | undefined>> {
    const refs = writes.map((w) => (w.op === 'put' ? refOf(w.object) : w.ref));
    refs.forEach((ref, index) => {
      if (refs.findIndex((other) => sameRef(other, ref)) !== index) {
        throw new Error(`transaction writes ${refKey(ref)} twice`);
      }
    });
    const failed = writes.filter((write, index) => this.currentVersion(refs[index]!) !== write.expectedVersion);
    if (failed.length > 0) throw new ConflictError(failed.map((w) => (w.op === 'put' ? refOf(w.object) : w.ref)));

    return writes.map((write, index) => {
      const ref = refs[index]!;
      const objects = this.kindMap(ref);
      if (write.op === 'check') return undefined;
      if (write.op === 'delete') {
        objects.delete(refKey(ref));
        return undefined;
      }
      this.version += 1;
      const stored = deepFreeze({
        ...structuredClone(write.object),
        metadata: { ...structuredClone(write.object.metadata), resourceVersion: String(this.version) },
      });
      objects.set(refKey(ref), stored);
      return stored;
    });
  }

  private currentVersion(ref: ObjectRef): string | null {
    return this.kindMap(ref).get(refKey(ref))?.metadata.resourceVersion ?? null;
  }

  private kindMap(ref: ObjectRef): Map<string, StoredObject> {
    const key = kindKey(ref.group, ref.kind);
    let objects = this.byKind.get(key);
    if (!objects) {
      objects = new Map();
      this.byKind.set(key, objects);
    }
    return objects;
  }
}

/** Namespace then name, compared byte-wise like DynamoDB's sort key `<namespace>/<name>`. */
function compareByNamespaceAndName(a: StoredObject, b: StoredObject): number {
  const left = `${a.metadata.namespace ?? ''}/${a.metadata.name}`;
  const right = `${b.metadata.namespace ?? ''}/${b.metadata.name}`;
  return left < right ? -1 : left > right ? 1 : 0;
}
