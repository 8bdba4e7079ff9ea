import type { Cluster } from '../api/cluster';
import type { PriorityClass } from '../api/priority-class';
import { POLICY_GROUP, type AnyPropagationPolicy } from '../api/propagation-policy';
import type { ResourceBinding } from '../api/resource-binding';
import type { ResourceTemplate } from '../api/resource-template';
import type { Clock } from '../ports/clock';
import type { ObjectStore, StoredObject } from '../ports/object-store';
import { Informer } from './informer';

/** How often an informer reads its whole kind again, as a backstop against a change its feed missed. */
export const RELIST_INTERVAL_MS = 30 * 60 * 1_000;

/**
 * The informers of one process (a warm Lambda execution environment, the local runtime, a simulation),
 * one per kind, made when first asked for; the controllers share them as Kubernetes controllers share
 * an informer factory.
 */
export class Informers {
  /** By group, then kind: asked for on every read, so no key is built for the lookup. */
  private readonly byGroup = new Map<string, Map<string, Informer<never>>>();

  constructor(
    private readonly store: ObjectStore,
    private readonly clock: Clock,
    private readonly relistIntervalMs = RELIST_INTERVAL_MS,
  ) {}

  of<T extends StoredObject>(group: string, kind: string): Informer<T> {
    let kinds = this.byGroup.get(group);
    if (!kinds) this.byGroup.set(group, (kinds = new Map()));
    let informer = kinds.get(kind);
    if (!informer) kinds.set(kind, (informer = new Informer<never>(this.store, group, kind, this.clock, this.relistIntervalMs)));
    return informer as unknown as Informer<T>;
  }

  clusters(): Informer<Cluster> {
    return this.of('cluster.karmada.io', 'Cluster');
  }

  priorityClasses(): Informer<PriorityClass> {
    return this.of('scheduling.k8s.io', 'PriorityClass');
  }

  /** ResourceBindings and ClusterResourceBindings. */
  bindings(): readonly [Informer<ResourceBinding>, Informer<ResourceBinding>] {
    return [this.of('work.karmada.io', 'ResourceBinding'), this.of('work.karmada.io', 'ClusterResourceBinding')];
  }

  /** PropagationPolicies and ClusterPropagationPolicies. */
  policies(): readonly [Informer<AnyPropagationPolicy>, Informer<AnyPropagationPolicy>] {
    return [this.of(POLICY_GROUP, 'PropagationPolicy'), this.of(POLICY_GROUP, 'ClusterPropagationPolicy')];
  }

  templates(group: string, kind: string): Informer<ResourceTemplate> {
    return this.of(group, kind);
  }
}
