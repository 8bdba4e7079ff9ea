import { ApiError } from './status';

/**
 * Continue tokens of paged lists: where the next page starts (after an object, or at a position a log
 * gave), the list they continue (its namespace, or all) and that list's version. A token is taken only
 * by the list that gave it, and carries only keys an object can have, so that nothing a client makes up
 * reaches the store.
 */

const NOT_OURS = 'continue: the token is not one this server gave for this list; list again from the start';

interface ContinueToken {
  readonly after?: readonly [string, string];
  readonly position?: string;
  readonly scope: string;
  readonly version: string;
}

/** Where a continued list starts and what it answers with. */
export interface ContinuedFrom {
  /** Namespace and name of the last object of the previous page. */
  readonly after: readonly [string, string] | undefined;
  /** Where a log read in its own order (events) continues: the position it gave with the previous page. */
  readonly position: string | undefined;
  /** The resourceVersion of the list the token continues: every page of it answers with the first page's. */
  readonly version: string | undefined;
}

/** The scope of a list of all namespaces: not a namespace name. */
const ALL_NAMESPACES = '*';

const NAMESPACE = /^([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)?$/;
/** An object name as stored: what a sort key `<namespace>/<name>` can hold (no "/", no control characters). */
const NAME = /^[^/\u0000-\u001f]{1,253}$/;

/** The scope of a list of `namespace`, or of all namespaces. */
export function scopeOf(namespace: string | undefined): string {
  return namespace ?? ALL_NAMESPACES;
}

function isContinueToken(value: unknown, scope: string): value is ContinueToken {
  if (typeof value !== 'object' || value === null) return false;
  const { after, position, scope: tokenScope, version } = value as Record<string, unknown>;
  if (tokenScope !== scope || typeof version !== 'string' || version.length > 64) return false;
  if (typeof position === 'string') return after === undefined && position.length <= 2_048;
  if (!Array.isArray(after) || after.length !== 2 || position !== undefined) return false;
  const [namespace, name] = after as unknown[];
  return typeof namespace === 'string' && NAMESPACE.test(namespace) && (scope === ALL_NAMESPACES || namespace === scope) && typeof name === 'string' && NAME.test(name);
}

/** What the continue parameter of a list of `namespace` (all when undefined) says; a token not given for it is a 400. */
export function continuedFrom(token: string | undefined, namespace: string | undefined): ContinuedFrom {
  if (token === undefined || token === '') return { after: undefined, position: undefined, version: undefined };
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    // refused below
  }
  if (!isContinueToken(decoded, scopeOf(namespace))) throw notOurToken();
  return { after: decoded.after, position: decoded.position, version: decoded.version };
}

export function continueToken(from: { after: [string, string] } | { position: string }, scope: string, version: string): string {
  const token: ContinueToken = { ...from, scope, version };
  return Buffer.from(JSON.stringify(token)).toString('base64url');
}

/** A continue token no list of this kind gave (one of another kind's, or of a log read by position). */
export function notOurToken(): ApiError {
  return new ApiError('BadRequest', NOT_OURS);
}
