import type { KubeEvent } from '../api/event';
import { timestampOf, type Clock } from '../ports/clock';
import { EventPositionError, isSelected, kubeEvent, type EventFeedPage, type EventLog, type EventPage, type EventRecord, type EventSelection } from '../ports/event-log';
import type { Uids } from '../ports/uids';
import { SequentialUids } from './sequential-uids';

/** Keeps events in memory in the order they were recorded, folding repeats into a count as Kubernetes does. */
export class MemoryEventLog implements EventLog {
  private readonly events: KubeEvent[] = [];
  private readonly listeners: Array<(event: KubeEvent) => void> = [];

  /** Events' uids come from a sequence of their own, so that recording one more changes no object's uid. */
  constructor(
    private readonly clock: Clock,
    private readonly uids: Uids = new SequentialUids('events'),
  ) {}

  async record(event: EventRecord): Promise<void> {
    const time = timestampOf(this.clock);
    const made = kubeEvent(event, `${event.object.name}.${(this.events.length + 1).toString(16).padStart(8, '0')}`, time, this.uids.next());
    // Its version is its place in the log, counted from one: the log's version is how many it holds.
    const recorded = { ...made, metadata: { ...made.metadata, resourceVersion: String(this.events.length + 1) } };
    this.events.push(recorded);
    for (const listener of this.listeners) listener(recorded);
  }

  /** Calls `listener` with every event recorded from now on, as it is recorded. */
  onRecord(listener: (event: KubeEvent) => void): void {
    this.listeners.push(listener);
  }

  currentVersion(): string {
    return String(this.events.length);
  }

  async recordedAfter(version: string): Promise<EventFeedPage | undefined> {
    if (!/^\d{1,15}$/.test(version) || Number(version) > this.events.length) return undefined;
    return { events: this.events.slice(Number(version)), version: this.currentVersion() };
  }

  async list(selection?: EventSelection): Promise<KubeEvent[]> {
    return this.events.filter((event) => isSelected(event, selection));
  }

  /** Positions are indexes in the order recorded: events are only ever added. */
  async listPage(limit: number, from?: string): Promise<EventPage> {
    if (from !== undefined && !/^\d{1,15}$/.test(from)) throw new EventPositionError(`not a position of this event log: ${from}`);
    const start = from === undefined ? 0 : Number(from);
    const end = start + limit;
    return { events: this.events.slice(start, end), ...(end < this.events.length ? { next: String(end) } : {}) };
  }
}
