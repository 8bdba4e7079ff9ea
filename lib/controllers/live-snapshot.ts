import type { ResourceBinding } from '../api/resource-binding';
import type { SyncBatch } from '../cache/informer';
import type { Informers } from '../cache/informers';
import type { ObjectRef } from '../api/kinds';
import { SchedulingSnapshot } from '../scheduler/snapshot';
import { BINDING_GROUP } from '../api/resource-binding';
import { bindingInformers } from './binding-informers';
import type { ControllerContext } from './context';

/**
 * The scheduling snapshot of a process, kept warm across invocations: the cluster and binding informers'
 * handlers apply every change they read to it, so a batch brings it up to date by reading the store's
 * change feed (what changed since the last batch) rather than every cluster and binding. A cold start
 * reads everything once. Decisions made on it commit conditionally (the binding and its victims
 * unchanged, each cluster's allocation within its capacity); a conflict reads again the bindings it
 * named and what changed since in the binding feeds (refresh), never every binding.
 */
export class LiveSnapshot {
  readonly snapshot: SchedulingSnapshot;

  constructor(private readonly context: ControllerContext) {
    this.snapshot = new SchedulingSnapshot([], [], context.config.schedulerNames);
    context.informers.clusters().addHandler(({ previous, current }) => {
      if (current) this.snapshot.upsertCluster(current);
      else if (previous) this.snapshot.removeCluster(previous.metadata.name);
    });
    for (const informer of bindingInformers(context)) {
      informer.addHandler(({ key, current }) => {
        if (current) this.snapshot.upsert(current);
        else this.snapshot.remove(key);
      });
    }
  }

  /** Brings the snapshot up to date: clusters first, so that bindings find the clusters they are placed on. */
  async sync(batch?: SyncBatch): Promise<SchedulingSnapshot> {
    await this.context.informers.clusters().sync(batch);
    await this.syncBindings(batch);
    return this.snapshot;
  }

  /** The binding feeds: what the cycles have placed, without the clusters. */
  private async syncBindings(batch?: SyncBatch): Promise<void> {
    await Promise.all(bindingInformers(this.context).map((informer) => informer.sync(batch)));
  }

  /** A binding this process wrote: applied at once (the feed brings it again, and it is then ignored). */
  observe(binding: ResourceBinding): void {
    this.bindingInformer(binding.kind).observe(binding);
  }

  /**
   * Reads afresh the bindings a conflict named, directly, then the binding feeds: a conflict means other
   * cycles are committing beside this one (evicting the victims it chose, filling the cluster whose room
   * ran out), and the feeds bring all they did at once, so that the next decisions do not pick what they
   * took one conflict at a time. An allocation named is not read: the bindings are what it counts. The
   * clusters' feed is left to the next batch: a commit is never conditional on a cluster.
   */
  async refresh(refs: readonly ObjectRef[]): Promise<void> {
    await this.readBindings(refs.filter((named) => named.group === BINDING_GROUP));
    await this.syncBindings();
  }

  /** Reads these bindings directly: one the feed has not brought yet (its commit was slow to become visible). */
  async readBindings(refs: readonly ObjectRef[]): Promise<void> {
    for (const ref of refs) await this.bindingInformer(ref.kind).refresh([ref]);
  }

  private bindingInformer(kind: string) {
    const [namespaced, clusterScoped] = bindingInformers(this.context);
    return kind === 'ClusterResourceBinding' ? clusterScoped! : namespaced!;
  }
}

const snapshots = new WeakMap<Informers, LiveSnapshot>();

/** The live snapshot of the process whose informers the context holds, made on first use. */
export function liveSnapshot(context: ControllerContext): LiveSnapshot {
  let live = snapshots.get(context.informers);
  if (!live) snapshots.set(context.informers, (live = new LiveSnapshot(context)));
  return live;
}

