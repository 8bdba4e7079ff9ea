import { shownTime } from './time';

/** "3m ago" (or `label`, such as a wait), with the time itself on hover; nothing when there is no time. */
export function Ago({ time, now, label }: { time: string | undefined; now: number; label?: string }) {
  const shown = shownTime(time, now);
  if (!shown) return label === undefined ? null : <>{label}</>;
  return (
    <time dateTime={shown.iso} title={shown.title}>
      {label ?? shown.text}
    </time>
  );
}
