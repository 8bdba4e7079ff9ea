import type { InvolvedObject, KubeEvent } from '../api/event';

export interface EventRecord {
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly object: InvolvedObject;
  readonly message: string;
  /** A second object the event is about, such as the preemptor of a Preempted binding. */
  readonly related?: InvolvedObject;
  /** Machine-readable details (outrank.io/... keys), e.g. the priorities at the time of a preemption. */
  readonly annotations?: Readonly<Record<string, string>>;
}

/** Which events to list: one object's (kubectl describe), or every object's with one reason. */
export type EventSelection = { readonly object: InvolvedObject } | { readonly reason: string };

/**
 * Reasons the event log indexes across objects, so that listing one reads only its events: the
 * preemptions operators audit (the console's Preemptions page, `outrank check`). The events of other
 * reasons are many (one per scheduling attempt) and would crowd one index partition; listing them by
 * reason reads every event.
 */
export const INDEXED_REASONS: ReadonlySet<string> = new Set(['Preempted']);

/** A page of every event in the log's own order, and the position the next page starts at (none after the last). */
export interface EventPage {
  readonly events: KubeEvent[];
  readonly next?: string;
}

/** A position a log did not give (a client's continue token that is not one of the server's). */
export class EventPositionError extends Error {
  override name = 'EventPositionError';
}

/** The events a watch reads next: those recorded after a version, and the version to read on from. */
export interface EventFeedPage {
  readonly events: readonly KubeEvent[];
  readonly version: string;
}

/** Where Kubernetes-style events about objects are written and read back (kubectl describe). */
export interface EventLog {
  /**
   * A version every event recorded after the call is later than, and no event a list read after the
   * call returns is: what a list of events answers with, so that a watch from it sends each event
   * recorded since once and none listed again.
   */
  currentVersion(): string;
  /**
   * The events recorded after `version` (currentVersion's, a page's, an event's metadata.resourceVersion),
   * oldest first, each with its metadata.resourceVersion, and possibly some at or before it, which a
   * reader skips by version (compareRevisions); undefined when the version is not this log's, or older
   * than the events it keeps (a watch answers 410 Expired). Its cost is in the events read, not the log.
   */
  recordedAfter(version: string): Promise<EventFeedPage | undefined>;
  record(event: EventRecord): Promise<void>;
  /** The events selected (all without a selection), oldest first. */
  list(selection?: EventSelection): Promise<KubeEvent[]>;
  /**
   * Every event, at most `limit` of them from `from` (a `next` this log gave; its start when undefined),
   * in the log's own order rather than by time: a page reads about `limit` events, not the log. An
   * unknown position is an EventPositionError.
   */
  listPage(limit: number, from?: string): Promise<EventPage>;
}

/** Whether an event is among those `selection` names. */
export function isSelected(event: KubeEvent, selection: EventSelection | undefined): boolean {
  if (selection === undefined) return true;
  if ('reason' in selection) return event.reason === selection.reason;
  const { object } = selection;
  return (
    event.involvedObject.kind === object.kind &&
    event.involvedObject.name === object.name &&
    (event.involvedObject.namespace ?? '') === (object.namespace ?? '')
  );
}

/** The stored form of an event, the same for every adapter, as kubectl describe reads it; `uid` is its metadata.uid. */
export function kubeEvent(event: EventRecord, name: string, time: string, uid: string): KubeEvent {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name,
      namespace: event.object.namespace || 'default',
      uid,
      ...(event.annotations ? { annotations: { ...event.annotations } } : {}),
    },
    involvedObject: event.object,
    ...(event.related ? { related: event.related } : {}),
    type: event.type,
    reason: event.reason,
    message: event.message,
    count: 1,
    firstTimestamp: time,
    lastTimestamp: time,
    source: { component: 'outrank' },
  };
}
