/**
 * What a server on a loopback port that acts with its user's authority (`outrank proxy`, the gateway of
 * `npm start`) accepts from a browser. Listening on 127.0.0.1 keeps other machines out, not web pages:
 * a page on attacker.example whose name the attacker then resolves to 127.0.0.1 (DNS rebinding) is, for
 * the browser, same-origin with the server and may read and write through it. Its requests carry
 * `Host: attacker.example`, so only the host names below are accepted, as `kubectl proxy --accept-hosts`
 * does. A page of another origin on an accepted name (another local app, or a form posted from any
 * site) is told apart by its `Origin`: a request carrying one that is not the server's own is refused.
 * Requests without Origin (kubectl, curl, the command line) pass; no CORS header is ever sent.
 */

/** `kubectl proxy`'s default `--accept-hosts`: the loopback names. */
export const DEFAULT_ACCEPT_HOSTS = String.raw`^localhost$,^127\.0\.0\.1$,^\[::1\]$`;

export interface LoopbackGuard {
  /** Regular expressions, one of which the Host header's host name (without its port) must match. */
  readonly acceptHosts: readonly RegExp[];
  /** Where they were set, named in a refusal so that its reader knows what to widen. */
  readonly setting: string;
}

/** Comma-separated regular expressions, as `kubectl proxy --accept-hosts` takes them; throws naming the rule broken. */
export function parseAcceptHosts(text: string): RegExp[] {
  const patterns = text.split(',').filter((pattern) => pattern.length > 0);
  if (patterns.length === 0) throw new Error('must name at least one regular expression for host names (for example ^localhost$)');
  return patterns.map((pattern) => {
    try {
      return new RegExp(pattern);
    } catch (error) {
      throw new Error(`${JSON.stringify(pattern)} is not a regular expression: ${(error as Error).message}`);
    }
  });
}

/** The host of a Host header: `localhost:8001` → `localhost`, `[::1]:8001` → `[::1]` (brackets kept, so that `^\[::1\]$` matches with or without a port). */
function hostName(host: string): string | undefined {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[^\s:/?#@[\]]+)(?::\d{1,5})?$/.exec(host);
  return match?.[1]?.toLowerCase();
}

function sameOrigin(origin: string, host: string): boolean {
  try {
    return new URL(origin).origin === new URL(`http://${host}`).origin;
  } catch {
    return false;
  }
}

/**
 * Why a request must be refused, or undefined when it may pass: its Host (missing, malformed or not
 * accepted), or an Origin that is not the server's own (`http://` and the Host it was reached by).
 */
export function loopbackRefusal(headers: { readonly host?: string | undefined; readonly origin?: string | undefined }, guard: LoopbackGuard): string | undefined {
  const name = headers.host === undefined ? undefined : hostName(headers.host);
  if (name === undefined || !guard.acceptHosts.some((pattern) => pattern.test(name))) {
    return (
      `the Host ${JSON.stringify(headers.host ?? '')} is not one this server accepts (${guard.setting} ${guard.acceptHosts.map((pattern) => pattern.source).join(',')}): ` +
      'it acts with its user\'s authority, and a page whose name resolves to this machine (DNS rebinding) must not'
    );
  }
  if (headers.origin !== undefined && !sameOrigin(headers.origin, headers.host!)) {
    return `the request comes from a page of another origin (Origin ${JSON.stringify(headers.origin)}): only pages served by http://${headers.host} itself may call it, and cross-origin requests are refused`;
  }
  return undefined;
}

