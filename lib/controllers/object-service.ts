import { timestampOf } from '../ports/clock';
import { isDeepStrictEqual } from 'node:util';
import { decodeObjectWith, isBinding, isCluster, isEvent, isPolicy, isPriorityClass, type FieldValidation, type KubeObject } from '../api/decode';
import { mutatedCluster } from '../api/cluster-mutation';
import type { AnyPropagationPolicy } from '../api/propagation-policy';
import { DEFAULT_SCHEDULER_NAME } from '../api/scheduler-name';
import { clusterRef } from '../api/cluster';
import { CustomKinds } from '../api/custom-kinds';
import { isCustomResourceDefinition, withDefinitionStatus } from '../api/custom-resource-definition';
import { InvalidObjectError, type FieldCause } from '../api/invalid-object-error';
import { displayName, kindInfo, refKey, refOf, type ObjectRef } from '../api/kinds';
import { isPlainObject } from '../api/plain-object';
import { templateUpdateCauses } from '../api/template-update-rules';
import { customKindsOf } from '../cache/custom-kinds-informer';
import { applyMergePatch } from '../api/merge-patch';
import { NotFoundError } from '../api/not-found-error';
import type { PriorityClass } from '../api/priority-class';
import { bindingUpdateCauses } from '../api/binding-update';
import { carriedFieldWarnings } from '../api/carried-fields';
import type { ResourceBinding } from '../api/resource-binding';
import { retryOnConflict } from './retry-on-conflict';
import { deletionIsHeld, deletionMarks, deletionUpdateCauses, holdingFinalizers, isHeld, NAMESPACE_FINALIZER } from '../api/deletion';
import { GENERATE_NAME_ATTEMPTS, generatedName, generateNameOf, isUnnamed, withName } from '../api/generate-name';
import { generationAfter } from '../api/generation';
import { ConflictError, MAX_OBJECT_BYTES, withoutResourceVersion, type StoredObject } from '../ports/object-store';
import type { Uids } from '../ports/uids';
import { allocationsOf, removeEmptyAllocations } from './allocations';
import { requestScheduling } from './binding-requests';
import { bindingRefOf } from './binding-references';
import { bindingGroupId, objectChangeNotice } from './messages';
import { placementMove } from './written-placement';
import { serverSideApplied, updatedManagedFields } from './server-side-apply';
import type { ControllerContext } from './context';

export interface WriteResult {
  readonly object: KubeObject;
  readonly created: boolean;
  /**
   * For the client, as the Kubernetes API server's Warning headers: the unknown fields dropped under Warn,
   * and the fields of Karmada's API the object carries that outrank does not act on (carried-fields.ts).
   */
  readonly warnings: readonly string[];
}

/** How a write treats what it is given, as the Kubernetes API server's query parameters of the same names. */
export interface WriteOptions {
  /** Strict (the default) refuses unknown fields; Warn drops them with a warning; Ignore drops them. */
  readonly fieldValidation?: FieldValidation;
  /** Validate, check every rule and answer what would be stored, writing nothing and telling no controller. */
  readonly dryRun?: boolean;
  /**
   * Who writes, for metadata.managedFields: the fields the write changes become this manager's. Without
   * one (the simulator, in-process writes) the managedFields stay as they were.
   */
  readonly fieldManager?: string;
}

/** A server-side apply's options: a field manager is required, and force takes fields other managers own. */
export interface ApplyOptions extends WriteOptions {
  readonly fieldManager: string;
  readonly force?: boolean;
}

/** The object as decoded, and the warnings its unknown fields give under the write's field validation. */
interface Accepted {
  readonly object: KubeObject;
  readonly warnings: readonly string[];
}

/**
 * kubectl writes `creationTimestamp: null` for a time not set (`create --dry-run=client -o yaml`); the
 * server sets it whatever a client says, so a null is no value, as kube-apiserver reads it.
 */
function withoutNullCreationTime(raw: unknown): unknown {
  if (!isPlainObject(raw) || !isPlainObject(raw.metadata) || raw.metadata.creationTimestamp !== null) return raw;
  const { creationTimestamp: _null, ...metadata } = raw.metadata;
  return { ...raw, metadata };
}

function decodeFor(raw: unknown, options: WriteOptions, custom: CustomKinds): Accepted {
  const mode = options.fieldValidation ?? 'Strict';
  const { object, unknownFields } = decodeObjectWith(withoutNullCreationTime(raw), mode, custom);
  return { object, warnings: mode === 'Warn' ? unknownFields.map((field) => `unknown field "${field}"`) : [] };
}

/** A kind outrank does not serve by itself: one a CustomResourceDefinition may register. */
function mayBeCustom(raw: unknown): boolean {
  if (!isPlainObject(raw) || typeof raw.apiVersion !== 'string' || typeof raw.kind !== 'string') return false;
  return kindInfo(raw.apiVersion, raw.kind) === undefined;
}

function forbid(object: KubeObject, causes: FieldCause[]): never {
  throw new InvalidObjectError(object.kind, object.metadata.name, causes, 422);
}

/** Binding priority and preemption (000), "About priority classes": only the description may change. */
function priorityClassUpdateCauses(next: PriorityClass, previous: PriorityClass): FieldCause[] {
  const causes: FieldCause[] = [];
  if (next.value !== previous.value) causes.push({ field: 'value', message: 'is immutable: delete and recreate the PriorityClass to change it' });
  if ((next.globalDefault ?? false) !== (previous.globalDefault ?? false)) causes.push({ field: 'globalDefault', message: 'is immutable' });
  if ((next.preemptionPolicy ?? 'PreemptLowerPriority') !== (previous.preemptionPolicy ?? 'PreemptLowerPriority')) {
    causes.push({ field: 'preemptionPolicy', message: 'is immutable' });
  }
  return causes;
}

/** What an update may not change of the stored object: a PriorityClass's value and policy, immutable template fields. */
function checkUpdate(next: KubeObject, previous: KubeObject): void {
  const causes = isPriorityClass(next) ? priorityClassUpdateCauses(next, previous as PriorityClass) : templateUpdateCauses(next, previous);
  if (causes.length > 0) forbid(next, causes);
}

/**
 * A policy's scheduler is fixed when it is created, as Karmada's webhook holds it
 * (pkg/webhook/propagationpolicy/validating.go, validateUpdate): the bindings it made stay with the
 * scheduler that placed them. Absent is the default scheduler (the CRD's default).
 */
function checkPolicyUpdate(next: AnyPropagationPolicy, previous: AnyPropagationPolicy): void {
  const named = (policy: AnyPropagationPolicy) => policy.spec.schedulerName ?? DEFAULT_SCHEDULER_NAME;
  if (named(next) !== named(previous)) {
    forbid(next, [{ field: 'spec.schedulerName', message: `the schedulerName should not be updated: it is "${named(previous)}"; make another policy for another scheduler` }]);
  }
}

/**
 * A decoded object that the write paths accept: events are recorded by outrank itself, and bindings made
 * by it; a binding outrank made may be written over (bindingUpdateCauses says what of it).
 */
function writable(raw: unknown, options: WriteOptions, custom: CustomKinds, existing?: KubeObject): Accepted {
  const accepted = decodeFor(raw, options, custom);
  const { object } = accepted;
  if (isBinding(object) && !existing) {
    forbid(object, [{ field: 'kind', message: 'bindings are created by outrank; patch spec.suspension or spec.rescheduleTriggeredAt instead' }]);
  }
  if (isEvent(object)) forbid(object, [{ field: 'kind', message: 'events are recorded by outrank' }]);
  return accepted;
}

/**
 * The write path shared by the HTTP API and the simulator: validate, enforce update rules, write
 * conditionally, then tell the controllers. Nothing is written when any rule fails.
 */
export class ObjectService {
  constructor(private readonly context: ControllerContext) {}

  /**
   * The kinds the stored CustomResourceDefinitions register, as this process's informer of them holds
   * them after reading its feed: the API serves them, and writes of their objects are validated by them.
   */
  customKinds(): Promise<CustomKinds> {
    return customKindsOf(this.context.informers);
  }

  /** The custom kinds decoding `raw` may need: read only for a kind outrank does not serve by itself. */
  async customKindsFor(raw: unknown): Promise<CustomKinds> {
    return mayBeCustom(raw) ? this.customKinds() : CustomKinds.NONE;
  }

  async apply(raw: unknown, options: WriteOptions = {}): Promise<WriteResult> {
    const accepted = writable(raw, options, await this.customKindsFor(raw));
    const { object } = accepted;
    const ref = refOf(object);
    const existing = await this.context.store.get<KubeObject>(ref);
    const requested = object.metadata.resourceVersion;
    if (requested !== undefined && requested !== existing?.metadata.resourceVersion) throw new ConflictError([ref]);
    if (existing) checkUpdate(object, existing);
    return this.write(accepted, existing, options);
  }

  /**
   * Creates an object whose name must be free: one conditional write, nothing read first; a name taken
   * is a ConflictError. An object without a name is named from its metadata.generateName, another name
   * tried when a generated one is taken (up to GENERATE_NAME_ATTEMPTS), as kube-apiserver does.
   */
  async create(raw: unknown, options: WriteOptions = {}): Promise<WriteResult> {
    if (isUnnamed(raw) && isPlainObject(raw)) {
      throw new InvalidObjectError(String(raw.kind ?? 'object'), '', [{ field: 'metadata.name', message: 'Required value: name or generateName is required' }], 422);
    }
    const prefix = generateNameOf(raw);
    if (prefix === undefined || !isPlainObject(raw)) return this.createNamed(raw, options);
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.createNamed(withName(raw, generatedName(prefix, this.context.uids.next())), options);
      } catch (error) {
        if (!(error instanceof ConflictError) || attempt >= GENERATE_NAME_ATTEMPTS) throw error;
      }
    }
  }

  private async createNamed(raw: unknown, options: WriteOptions): Promise<WriteResult> {
    const accepted = writable(raw, options, await this.customKindsFor(raw));
    const { object } = accepted;
    if (object.metadata.resourceVersion !== undefined) {
      forbid(object, [{ field: 'metadata.resourceVersion', message: 'must not be set on objects to be created' }]);
    }
    if (options.dryRun && (await this.context.store.get(refOf(object)))) throw new ConflictError([refOf(object)]);
    return this.write(accepted, undefined, options);
  }

  /** Patches an object: a JSON merge patch by default, or another patch format such as a strategic merge patch. */
  async patch(ref: ObjectRef, patch: unknown, applyPatch: PatchFunction = applyMergePatch, options: WriteOptions = {}): Promise<WriteResult> {
    // Like the Kubernetes API server: a patch without a resourceVersion precondition is applied again
    // to the newer object when a controller wrote in between, instead of failing with a conflict.
    return retryOnConflict(this.attemptsFor(patch), () => this.patchOnce(ref, patch, applyPatch, options));
  }

  /** A write that names the resourceVersion it expects fails on a conflict; one that does not is made again, as often as a commit. */
  private attemptsFor(body: unknown): number {
    return patchedVersion(body) === undefined ? this.context.config.maxCommitAttempts : 1;
  }

  private async patchOnce(ref: ObjectRef, patch: unknown, applyPatch: PatchFunction, options: WriteOptions): Promise<WriteResult> {
    const existing = await this.context.store.get<KubeObject>(ref);
    if (!existing) throw new NotFoundError(ref.kind, displayName(ref));
    const patched = { ...(applyPatch(existing, patch) as Record<string, unknown>), apiVersion: existing.apiVersion, kind: existing.kind };
    const accepted = decodeFor(patched, options, await this.customKindsFor(patched));
    const { object } = accepted;
    const same = refOf(object);
    if (same.name !== ref.name || same.namespace !== ref.namespace) {
      forbid(object, [{ field: 'metadata.name', message: 'cannot be changed by a patch' }]);
    }
    // A resourceVersion the patch sets is its precondition, as in Kubernetes, not a value to drop.
    const requested = object.metadata.resourceVersion;
    if (requested !== undefined && requested !== existing.metadata.resourceVersion) throw new ConflictError([ref]);
    checkUpdate(object, existing);
    if (isEvent(object)) forbid(object, [{ field: 'kind', message: 'events are recorded by outrank' }]);
    return this.write(accepted, existing, options);
  }

  /**
   * Deletes an object, answering it as it was deleted; or, when finalizers hold it (deletion.ts), marks
   * it as being deleted and answers it so marked (again if it was already): it goes when an update has
   * removed the last of them.
   */
  async delete(ref: ObjectRef, options: Pick<WriteOptions, 'dryRun'> = {}): Promise<KubeObject> {
    const existing = await this.context.store.get<KubeObject>(ref);
    if (!existing) throw new NotFoundError(ref.kind, displayName(ref));
    if (isBinding(existing) || isEvent(existing)) {
      forbid(existing, [{ field: 'kind', message: `${existing.kind} objects are managed by outrank; delete the resource template instead` }]);
    }
    if (deletionIsHeld(existing)) return this.markDeleted(existing, holdingFinalizers(existing.metadata), options);
    if (!options.dryRun) await this.context.store.transact([{ op: 'delete', ref, expectedVersion: existing.metadata.resourceVersion ?? '', last: existing }]);
    return existing;
  }

  private async markDeleted(existing: KubeObject, holding: string[], options: Pick<WriteOptions, 'dryRun'>): Promise<KubeObject> {
    if (existing.metadata.deletionTimestamp !== undefined) return existing;
    const metadata = { ...withoutResourceVersion(existing.metadata), deletionTimestamp: this.managedTime(), deletionGracePeriodSeconds: 0 };
    const marked = (
      existing.kind === 'Namespace'
        ? // Terminating, held until what it holds is deleted (namespace-deletion.ts), as Kubernetes marks it.
          { ...existing, metadata: holding.length > 0 ? { ...metadata, finalizers: holding } : withoutFinalizers(metadata), spec: { finalizers: [NAMESPACE_FINALIZER] }, status: { phase: 'Terminating' } }
        : { ...existing, metadata: { ...metadata, finalizers: holding } }
    ) as KubeObject;
    if (options.dryRun) return withVersion(marked, existing.metadata.resourceVersion);
    const [written] = await this.context.store.transact([{ op: 'put', object: marked as StoredObject, expectedVersion: existing.metadata.resourceVersion ?? null }]);
    return written as KubeObject;
  }

  /**
   * Server-side apply: `config` (the fields this manager wants, as a partial object) merged into the
   * object by the structured-merge rules (server-side-apply.ts), or created from it. A conflict with
   * another manager's fields is refused with ApplyConflictError unless forced; a concurrent write is
   * met by applying again to the newer object.
   */
  async serverSideApply(ref: ObjectRef, config: Record<string, unknown>, merge: PatchFunction, options: ApplyOptions): Promise<WriteResult> {
    return retryOnConflict(this.attemptsFor(config), async () => {
      const existing = await this.context.store.get<KubeObject>(ref);
      const applied = serverSideApplied(existing as Record<string, unknown> | undefined, config, options.fieldManager, options.force ?? false, this.managedTime(), merge);
      const raw = existing ? { ...applied, apiVersion: existing.apiVersion, kind: existing.kind } : applied;
      const accepted = writable(raw, options, await this.customKindsFor(raw), existing);
      const requested = accepted.object.metadata.resourceVersion;
      if (requested !== undefined && requested !== existing?.metadata.resourceVersion) throw new ConflictError([ref]);
      if (existing) checkUpdate(accepted.object, existing);
      return this.write(accepted, existing, options, 'as-applied');
    });
  }

  private async write(accepted: Accepted, existing: KubeObject | undefined, options: WriteOptions, managedFields: 'by-change' | 'as-applied' = 'by-change'): Promise<WriteResult> {
    const object = withDeletionMarks(withKeptUid(accepted.object, existing), existing);
    if (existing) {
      const causes = deletionUpdateCauses(object.metadata, existing.metadata);
      if (causes.length > 0) forbid(object, causes);
    }
    if (existing && isPolicy(existing) && isPolicy(object)) checkPolicyUpdate(object, existing);
    const warnings = [...accepted.warnings, ...carriedFieldWarnings(object, existing)];
    // Every write over a binding, by any path (patch, server-side apply, the status), is held to one rule.
    if (existing && isBinding(existing)) {
      const causes = bindingUpdateCauses(object as ResourceBinding, existing, this.now(), this.context.config.schedulerNames);
      if (causes.length > 0) forbid(object, causes);
    }
    const next = this.withManagedFields(stamped(object, existing, this.now(), this.context.uids), existing, options, managedFields);
    // As in Kubernetes, writing what is already stored changes nothing: same version. A binding is
    // requested again all the same: this may be a client retrying a patch whose request was lost to a
    // failure after the write took effect, and binding-enqueue is idempotent.
    if (existing && isDeepStrictEqual(withoutVersion(next), withoutVersion(existing))) {
      if (!options.dryRun) await this.requestIfBinding(existing);
      return { object: existing, created: false, warnings };
    }
    const size = Buffer.byteLength(JSON.stringify(next), 'utf8');
    if (size > MAX_OBJECT_BYTES) {
      throw new InvalidObjectError(next.kind, next.metadata.name, [{ field: '<root>', message: `is ${size} bytes as JSON; objects are kept up to ${MAX_OBJECT_BYTES} bytes` }], 413);
    }
    // Another scheduler's placement moves the allocations with it (written-placement.ts), checked on a dry run too.
    const move = existing && isBinding(existing) ? await placementMove(this.context, existing, next as ResourceBinding, this.now()) : undefined;
    // A dry run answers what would be stored: the current version for a replaced object, none for a new one.
    if (options.dryRun) return { object: withVersion(next, existing?.metadata.resourceVersion), created: existing === undefined, warnings };
    // The last finalizer of an object being deleted removed: it goes, as kube-apiserver deletes it then.
    if (existing && next.metadata.deletionTimestamp !== undefined && !isHeld(next)) {
      await this.context.store.transact([{ op: 'delete', ref: refOf(existing), expectedVersion: existing.metadata.resourceVersion ?? '', last: existing }]);
      await this.announceToNamespace(existing);
      return { object: next, created: false, warnings };
    }
    const [written] = await this.context.store.transact([
      { op: 'put', object: next as StoredObject, expectedVersion: existing?.metadata.resourceVersion ?? null },
      ...(move?.writes ?? []),
    ]);
    await this.requestIfBinding(written as KubeObject);
    if (move && move.freed.length > 0) await this.afterRoomFreed(written as ResourceBinding, move.freed);
    return { object: written as KubeObject, created: existing === undefined, warnings };
  }

  /**
   * An object its finalizers held is gone: its namespace, if being deleted and waiting for it, is told
   * (namespace-deletion.ts) so that it goes in turn. Failing that, it goes at its next change notice.
   */
  private async announceToNamespace(object: KubeObject): Promise<void> {
    const namespace = object.metadata.namespace;
    if (!namespace) return;
    try {
      await this.context.queues.policyChange.send([objectChangeNotice({ group: '', kind: 'Namespace', namespace: '', name: namespace }, `${refKey(refOf(object))}@${object.metadata.resourceVersion ?? '0'}`, 'written')]);
    } catch {
      this.context.metrics.count('AnnouncementsFailed', { kind: 'Namespace' });
    }
  }

  private now(): string {
    return timestampOf(this.context.clock);
  }

  /**
   * Room another scheduler gave back by moving its binding: the records it emptied go, and the clusters
   * are announced to policy-change as changed, which wakes outrank's waiting bindings that can use their
   * room (cluster-failover.ts) in a process that holds them, rather than reading them all here. The write
   * is stored whatever happens here: a failure is counted, and the reconcile's flush finds what can be
   * placed.
   */
  private async afterRoomFreed(binding: ResourceBinding, clusters: readonly string[]): Promise<void> {
    try {
      await removeEmptyAllocations(this.context.store, (await allocationsOf(this.context.store, clusters)).values());
      const cause = `${bindingGroupId(bindingRefOf(binding))}@${binding.metadata.resourceVersion ?? '0'}`;
      await this.context.queues.policyChange.send(clusters.map((name) => objectChangeNotice(clusterRef(name), cause, 'written')));
    } catch {
      this.context.metrics.count('AnnouncementsFailed', { kind: binding.kind });
    }
  }

  /** managedFields times are to the second, as Kubernetes writes them. */
  private managedTime(): string {
    return timestampOf(this.context.clock).replace(/\.\d{3}Z$/, 'Z');
  }

  /**
   * The managedFields the written object carries: as an apply computed them; else, with a field manager,
   * those of the stored object with the fields this write changes made the manager's; else as they were.
   */
  private withManagedFields(next: KubeObject, existing: KubeObject | undefined, options: WriteOptions, managedFields: 'by-change' | 'as-applied'): KubeObject {
    if (managedFields === 'as-applied') return next;
    if (options.fieldManager) {
      return updatedManagedFields(existing as Record<string, unknown> | undefined, next as Record<string, unknown>, options.fieldManager, this.managedTime()) as KubeObject;
    }
    const kept = next.metadata.managedFields ?? existing?.metadata.managedFields;
    return kept === next.metadata.managedFields ? next : ({ ...next, metadata: { ...next.metadata, managedFields: kept } } as KubeObject);
  }

  /**
   * A binding a user changed (its suspension) is requested at binding-enqueue. Every other write
   * reaches the controllers through the store itself (the objects table's stream, in memory the
   * store's commit listener), so it is announced even when this process dies right after writing.
   * The binding write is stored whatever happens here, so a failed request does not fail it: it is
   * counted (metric AnnouncementsFailed) and the reconcile requests every binding that needs
   * scheduling.
   */
  private async requestIfBinding(object: KubeObject): Promise<void> {
    if (!isBinding(object)) return;
    try {
      await requestScheduling(this.context, [object]);
    } catch {
      this.context.metrics.count('AnnouncementsFailed', { kind: object.kind });
    }
  }
}

type PatchFunction = (target: unknown, patch: unknown) => unknown;

function patchedVersion(patch: unknown): unknown {
  const metadata = typeof patch === 'object' && patch !== null ? (patch as { metadata?: unknown }).metadata : undefined;
  return typeof metadata === 'object' && metadata !== null ? (metadata as { resourceVersion?: unknown }).resourceVersion : undefined;
}

/**
 * A write over a stored object keeps its metadata.uid, as kube-apiserver does: taken as stored when the
 * write names none, refused as an immutable field when it names another.
 */
function withKeptUid(object: KubeObject, existing: KubeObject | undefined): KubeObject {
  const kept = existing?.metadata.uid;
  const named = object.metadata.uid;
  if (kept === undefined || named === kept) return object;
  if (named !== undefined) forbid(object, [{ field: 'metadata.uid', message: `is immutable: the object's uid is ${kept}` }]);
  return { ...object, metadata: { ...object.metadata, uid: kept } } as KubeObject;
}

function withoutFinalizers<T extends { finalizers?: unknown }>(metadata: T): Omit<T, 'finalizers'> {
  const { finalizers: _finalizers, ...rest } = metadata;
  return rest;
}

/** The object with the deletion marks of the stored one (deletion.ts): a client neither sets nor clears them. */
function withDeletionMarks(object: KubeObject, existing: KubeObject | undefined): KubeObject {
  const { deletionTimestamp: _timestamp, deletionGracePeriodSeconds: _grace, ...metadata } = object.metadata as KubeObject['metadata'] & Record<string, unknown>;
  return { ...object, metadata: { ...metadata, ...deletionMarks(existing?.metadata) } } as KubeObject;
}

/**
 * The object as it is to be written over `existing`: its creation time, generation and uid set, no
 * resourceVersion, and a cluster mutated as Karmada's API server does (cluster-mutation.ts). A new object gets a new
 * uid, whatever the client sent, as kube-apiserver gives one; an object stored without one gets one at
 * its next write.
 */
function stamped(object: KubeObject, existing: KubeObject | undefined, now: string, uids: Uids): KubeObject {
  const metadata = withoutResourceVersion(object.metadata);
  const mutated =
    isCluster(object) ? mutatedCluster(object, existing && isCluster(existing) ? existing : undefined, now)
    : isCustomResourceDefinition(object) ? withDefinitionStatus(object, existing && isCustomResourceDefinition(existing) ? existing : undefined, now)
    : object;
  return {
    ...mutated,
    metadata: {
      ...metadata,
      uid: existing?.metadata.uid ?? uids.next(),
      creationTimestamp: existing?.metadata.creationTimestamp ?? now,
      generation: nextGeneration(mutated, existing),
    },
  } as KubeObject;
}

function withVersion(object: KubeObject, resourceVersion: string | undefined): KubeObject {
  return resourceVersion === undefined ? object : ({ ...object, metadata: { ...object.metadata, resourceVersion } } as KubeObject);
}

function withoutVersion(object: KubeObject): unknown {
  return { ...object, metadata: withoutResourceVersion(object.metadata) };
}

function nextGeneration(object: KubeObject, existing: KubeObject | undefined): number {
  if (isBinding(object)) return generationAfter(object, existing as ResourceBinding | undefined);
  const previous = existing?.metadata.generation ?? 0;
  const specOf = (o: KubeObject | undefined) => JSON.stringify(o && 'spec' in o ? o.spec : o && isPriorityClass(o) ? o.description : undefined);
  return existing === undefined || specOf(object) !== specOf(existing) ? previous + 1 : previous;
}
