import { describe, expect, it } from 'vitest';
import { age } from '../../../lib/format/age';

const NOW = Date.UTC(2026, 0, 10);
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

describe('age', () => {
  it.each([
    [45, '45s'],
    [119, '119s'],
    [330, '5m30s'],
    [600, '10m'],
    [3 * 3600 + 600, '3h10m'],
    [30 * 3600, '30h'],
    [3 * 86400 + 3600, '3d1h'],
    [20 * 86400, '20d'],
    [(3 * 365 + 30) * 86400, '3y30d'],
  ])('%is ago is %s, as kubectl prints it', (seconds, text) => {
    expect(age(ago(seconds), NOW)).toBe(text);
  });

  it('tolerates a little clock skew, and says when it cannot tell', () => {
    expect(age(ago(-1), NOW)).toBe('0s');
    expect(age(ago(-60), NOW)).toBe('<invalid>');
    expect(age(undefined, NOW)).toBe('<unknown>');
  });
});
