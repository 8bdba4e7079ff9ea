import { refOf } from '../api/kinds';
import type { Informer } from '../cache/informer';
import type { Informers } from '../cache/informers';
import type { StoredObject } from '../ports/object-store';
import { selectedTemplateKinds } from '../policy/selector-index';
import type { ControllerContext } from './context';
import { objectChangeNotice, type ObjectChange } from './messages';
import type { OutgoingMessage } from '../ports/message-queue';

/**
 * The second announcement of every write policy-change must hear of, so that none is lost: the API
 * stores an object, then sends its notice; should it die in between, or the send fail, the notice is
 * gone. Each reconcile run reads the change feeds of policies, clusters and the template kinds the
 * policies select, and sends the notice of every change read since the previous run again, under the
 * same deduplication id (objectChangeNotice). SQS drops it when the API's notice went out in the last
 * five minutes (the reconcile runs every minute), and delivers it when that notice was lost: each change
 * is handled once. What a kind held when this process first read it is not announced (the template
 * resync covers a process that was away).
 */
export class ChangeAnnouncer {
  private readonly watched = new WeakSet<object>();
  private pending: OutgoingMessage<ObjectChange>[] = [];

  /** Reads the feeds and announces what changed since the last run; returns how many notices were sent. */
  async run(context: ControllerContext): Promise<number> {
    const { informers } = context;
    const [policies, clusterPolicies] = informers.policies();
    await Promise.all([this.watch(context, policies), this.watch(context, clusterPolicies), this.watch(context, informers.clusters())]);
    const kinds = selectedTemplateKinds([...policies.values(), ...clusterPolicies.values()]);
    await Promise.all([...kinds.values()].map(({ group, kind }) => this.watch(context, informers.templates(group, kind))));
    const notices = this.pending;
    this.pending = [];
    try {
      await context.queues.policyChange.send(notices);
    } catch (error) {
      this.pending = [...notices, ...this.pending];
      throw error;
    }
    return notices.length;
  }

  /** Syncs the informer; one not watched yet starts recording its changes after this first read. */
  private async watch<T extends StoredObject>(context: ControllerContext, informer: Informer<T>): Promise<void> {
    await informer.sync(context.batch);
    if (this.watched.has(informer)) return;
    this.watched.add(informer);
    let initial = true;
    informer.addHandler(({ previous, current }) => {
      // A relist hands back objects as they were: only a new version is a change.
      if (initial || previous?.metadata.resourceVersion === current?.metadata.resourceVersion) return;
      if (current) this.pending.push(objectChangeNotice(refOf(current), current.metadata.resourceVersion ?? '', 'written'));
      else if (previous) this.pending.push(objectChangeNotice(refOf(previous), previous.metadata.resourceVersion ?? '', 'deleted'));
    });
    initial = false;
  }
}

const announcers = new WeakMap<Informers, ChangeAnnouncer>();

/** The announcer of the process whose informers the context holds: it watches them for the life of the process. */
export function changeAnnouncer(context: ControllerContext): ChangeAnnouncer {
  let announcer = announcers.get(context.informers);
  if (!announcer) announcers.set(context.informers, (announcer = new ChangeAnnouncer()));
  return announcer;
}
