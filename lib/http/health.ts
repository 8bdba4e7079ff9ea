import type { ApiRequest, ApiResponse } from './api-types';

/**
 * /healthz, /livez and /readyz, as kube-apiserver serves them: `ok`, or with `?verbose` each check on
 * its line and a verdict; /readyz/<check> (/livez/<check>) one check; `?exclude=<check>` leaves one out.
 * The API's one check is `ping`: whether it answers. The store and queues are not checked here: an
 * outage there answers each request with a 503/504 Status of its own, and a probe that read the store
 * would cost a read per probe at fleet size.
 */

const ENDPOINTS = new Set(['healthz', 'livez', 'readyz']);
const CHECKS = ['ping'] as const;

function text(statusCode: number, body: string): ApiResponse {
  return { statusCode, headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' }, body };
}

function excluded(request: ApiRequest): Set<string> {
  return new Set((request.query.exclude ?? '').split(',').filter(Boolean));
}

/** The answer of a health path, or undefined when the path is not one. */
export function healthResponse(request: ApiRequest): ApiResponse | undefined {
  const [endpoint, check, ...rest] = request.path.split('/').filter(Boolean);
  if (endpoint === undefined || !ENDPOINTS.has(endpoint) || rest.length > 0 || request.method.toUpperCase() !== 'GET') return undefined;
  // A check not served is not found, as every path that names nothing.
  if (check !== undefined) return (CHECKS as readonly string[]).includes(check) ? text(200, 'ok') : undefined;
  if (request.query.verbose === undefined) return text(200, 'ok');
  const skipped = excluded(request);
  const lines = CHECKS.map((name) => (skipped.has(name) ? `[+]${name} excluded: ok` : `[+]${name} ok`));
  return text(200, `${lines.join('\n')}\n${endpoint} check passed\n`);
}
