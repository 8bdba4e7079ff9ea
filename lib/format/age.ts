/**
 * How long ago a timestamp was, as kubectl prints ages (k8s.io/apimachinery duration.HumanDuration):
 * precise while recent, coarser as it grows ("45s", "5m30s", "3h10m", "12d", "2y30d").
 */
export function age(timestamp: string | undefined, now: number): string {
  const then = timestamp === undefined ? Number.NaN : Date.parse(timestamp);
  if (Number.isNaN(then)) return '<unknown>';
  const seconds = Math.floor((now - then) / 1000);
  // Up to two seconds in the future is clock skew between machines, not an error.
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (hours < 24 * 8) return hours % 24 === 0 ? `${days}d` : `${days}d${hours % 24}h`;
  if (days < 365 * 2) return `${days}d`;
  const years = Math.floor(days / 365);
  if (days < 365 * 8) return days % 365 === 0 ? `${years}y` : `${years}y${days % 365}d`;
  return `${years}y`;
}
