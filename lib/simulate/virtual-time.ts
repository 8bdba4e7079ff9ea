const HOUR = 3_600_000;
const MINUTE = 60_000;
const SECOND = 1_000;

/**
 * Virtual time elapsed since a simulation began, as a duration a scenario's `wait` or Go's
 * time.ParseDuration reads: "0s", "300ms", "5m", "1h30m", "2m1.5s".
 */
export function formatDuration(milliseconds: number): string {
  if (milliseconds === 0) return '0s';
  if (milliseconds < SECOND) return `${milliseconds}ms`;
  const hours = Math.floor(milliseconds / HOUR);
  const minutes = Math.floor((milliseconds % HOUR) / MINUTE);
  const seconds = (milliseconds % MINUTE) / SECOND;
  return `${hours > 0 ? `${hours}h` : ''}${minutes > 0 ? `${minutes}m` : ''}${seconds > 0 ? `${seconds}s` : ''}`;
}
