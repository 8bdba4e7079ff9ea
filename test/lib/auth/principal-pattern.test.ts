import { describe, expect, it } from 'vitest';
import { matchesPrincipal, principalPattern } from '../../../lib/auth/principal-pattern';

describe('principal patterns', () => {
  it.each([
    ['arn:aws:iam::1:role/team-a', 'arn:aws:iam::1:role/team-a', true],
    ['arn:aws:iam::1:role/team-a', 'arn:aws:iam::1:role/team-a-b', false],
    ['arn:aws:iam::1:role/team-a', 'arn:aws:iam::1:role/Team-A', false],
    ['arn:aws:sts::1:assumed-role/team-a/*', 'arn:aws:sts::1:assumed-role/team-a/ci', true],
    ['arn:aws:sts::1:assumed-role/team-a/*', 'arn:aws:sts::1:assumed-role/team-a/', true],
    ['arn:aws:sts::1:assumed-role/team-a/*', 'arn:aws:sts::1:assumed-role/team-ab/ci', false],
    ['*', 'anyone', true],
    ['admin', 'admin', true],
  ])('%s matches %s: %s', (pattern, principal, matches) => {
    expect(matchesPrincipal(pattern, principal)).toBe(matches);
  });

  it.each([['arn:aws:iam::1:role/*/x'], ['**'], ['']])('refuses the pattern "%s"', (pattern) => {
    expect(principalPattern.safeParse(pattern).success).toBe(false);
  });
});
