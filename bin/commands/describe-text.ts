import { stringify } from 'yaml';
import type { KubeEvent } from '../../lib/api/event';
import { renderTable } from '../../lib/format/table';
import { age } from '../../lib/format/age';
import type { ApiObject } from './object-actions';

/** Wide enough for "Creation Timestamp:", so that values line up as in kubectl describe. */
const LABEL_WIDTH = 20;
const NONE = '<none>';
/** What the header lines already show. */
const SHOWN_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

function line(label: string, value: string): string {
  return `${`${label}:`.padEnd(LABEL_WIDTH)}${value}`;
}

/** Labels and annotations one per line, sorted, the first beside the label. */
function mapLines(label: string, map: Readonly<Record<string, string>> | undefined): string[] {
  const entries = Object.entries(map ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (entries.length === 0) return [line(label, NONE)];
  return entries.map(([key, value], index) => (index === 0 ? line(label, `${key}=${value}`) : `${' '.repeat(LABEL_WIDTH)}${key}=${value}`));
}

/** "preemptionPolicy" → "Preemption Policy", as kubectl describe titles the fields of custom resources. */
function title(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase());
}

/** A top-level field: a scalar beside its title, anything else as YAML indented under it (keys stay as written, for patches). */
function fieldLines(key: string, value: unknown): string[] {
  if (value === null || typeof value !== 'object') return [line(title(key), String(value))];
  return [`${title(key)}:`, ...stringify(value).trimEnd().split('\n').map((l) => `  ${l}`)];
}

/** "5m", or "5m (x3 over 20m)" for an event that happened more than once. */
function eventAge(event: KubeEvent, now: number): string {
  const last = age(event.lastTimestamp ?? event.firstTimestamp, now);
  return (event.count ?? 1) > 1 ? `${last} (x${event.count} over ${age(event.firstTimestamp, now)})` : last;
}

function eventLines(events: readonly KubeEvent[], now: number): string[] {
  if (events.length === 0) return [line('Events', NONE)];
  // Oldest first, as kubectl describe lists them; the sort is stable, so events of one instant keep the server's order.
  const sorted = [...events].sort((a, b) => ((a.lastTimestamp ?? '') < (b.lastTimestamp ?? '') ? -1 : (a.lastTimestamp ?? '') > (b.lastTimestamp ?? '') ? 1 : 0));
  const headers = ['Type', 'Reason', 'Age', 'From', 'Message'];
  const rows = sorted.map((e) => [e.type, e.reason, eventAge(e, now), e.source?.component ?? '', e.message]);
  const table = renderTable(headers, [headers.map((h) => '-'.repeat(h.length)), ...rows]);
  return ['Events:', ...table.split('\n').map((l) => `  ${l}`)];
}

/** kubectl describe for an object without a describer of its own: identity, metadata, its fields, then its events. */
export function describeText(object: ApiObject, events: readonly KubeEvent[], now: number): string {
  const { metadata } = object;
  return [
    line('Name', metadata.name),
    ...(metadata.namespace !== undefined ? [line('Namespace', metadata.namespace)] : []),
    ...mapLines('Labels', metadata.labels),
    ...mapLines('Annotations', metadata.annotations),
    line('API Version', object.apiVersion),
    line('Kind', object.kind),
    line('Creation Timestamp', metadata.creationTimestamp ?? NONE),
    line('Generation', String(metadata.generation ?? NONE)),
    line('Resource Version', metadata.resourceVersion ?? NONE),
    ...Object.entries(object)
      .filter(([key]) => !SHOWN_FIELDS.has(key))
      .flatMap(([key, value]) => fieldLines(key, value)),
    ...eventLines(events, now),
  ].join('\n');
}
