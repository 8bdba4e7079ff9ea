import * as z from 'zod';

/**
 * A principal, or principals sharing a prefix: exact text, or text ending in one `*` that matches any
 * rest. IAM role sessions are named `arn:aws:sts::<account>:assumed-role/<role>/<session>`, so a role
 * is matched by `arn:aws:sts::<account>:assumed-role/<role>/*`. A `*` anywhere else is refused rather
 * than taken literally: an operator who wrote it meant a wildcard, and a pattern that silently matched
 * nobody (or more than meant) would be worse than a settings error.
 */
export const principalPattern = z
  .string()
  .min(1, 'must not be empty')
  .max(2048)
  .refine((pattern) => !pattern.slice(0, -1).includes('*'), 'may hold "*" only as its last character');

/** Case-sensitive, as IAM policy conditions compare ARNs (StringEquals, StringLike). */
export function matchesPrincipal(pattern: string, principal: string): boolean {
  return pattern.endsWith('*') ? principal.startsWith(pattern.slice(0, -1)) : principal === pattern;
}
