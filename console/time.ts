import { duration } from './model';

/** A time as the console shows it: how long ago, as kubectl shows ages, and the time itself on hover. */
export interface ShownTime {
  /** "45s ago", "3m ago". */
  readonly text: string;
  /** The time in the reader's locale and time zone, with the zone named. */
  readonly title: string;
  /** As the API wrote it (RFC 3339), for the datetime attribute. */
  readonly iso: string;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** One DateTimeFormat per locale and zone: making one costs more than formatting a time, and tables format hundreds. */
function formatOf(locale: string | undefined, timeZone: string | undefined): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${timeZone ?? ''}`;
  let format = formats.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', timeZoneName: 'short', ...(timeZone ? { timeZone } : {}) };
    formats.set(key, (format = new Intl.DateTimeFormat(locale, options)));
  }
  return format;
}

/** "1 Jan 2026, 00:03:00 UTC" in en-GB: the reader's own locale and zone unless given. */
export function absoluteTime(ms: number, locale?: string, timeZone?: string): string {
  return formatOf(locale, timeZone).format(ms);
}

/**
 * `time` against `now` (the server's time, so that a skewed browser clock does not age everything);
 * undefined when there is no time. A time ahead of the server's (written by a clock of its own) is "0s ago".
 */
export function shownTime(time: string | undefined, now: number, locale?: string, timeZone?: string): ShownTime | undefined {
  const ms = Date.parse(time ?? '');
  if (Number.isNaN(ms)) return undefined;
  return { text: `${duration(Math.max(0, Math.floor((now - ms) / 1000)))} ago`, title: absoluteTime(ms, locale, timeZone), iso: time! };
}

const clockFormats = new Map<string, Intl.DateTimeFormat>();

/** "00:03": a minute of the last hour, for a chart's column. */
export function clockTime(ms: number, locale?: string, timeZone?: string): string {
  const key = `${locale ?? ''}|${timeZone ?? ''}`;
  let format = clockFormats.get(key);
  if (!format) clockFormats.set(key, (format = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', ...(timeZone ? { timeZone } : {}) })));
  return format.format(ms);
}
