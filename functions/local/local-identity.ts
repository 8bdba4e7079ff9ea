import type { IncomingHttpHeaders } from 'node:http';

/** The request header naming the caller, read only when OUTRANK_TRUST_IDENTITY_HEADER=true. */
export const IDENTITY_HEADER = 'x-outrank-identity';

/** Who sent a request to the local runtime. */
export type LocalIdentity = (headers: IncomingHttpHeaders) => string;

/**
 * Stands in for API Gateway's IAM authorizer, which the local runtime lacks: every request comes from
 * OUTRANK_IDENTITY (default "admin"), or, when OUTRANK_TRUST_IDENTITY_HEADER=true, from whoever its
 * x-outrank-identity header names, so that tests and demos can act as several tenants. Trusting the
 * header lets any client claim to be anyone: never enable it where isolation matters. The deployed
 * API never reads the header; it takes the caller from IAM (functions/caller-identity.ts).
 */
export function localIdentity(environment: NodeJS.ProcessEnv): LocalIdentity {
  const configured = environment.OUTRANK_IDENTITY || 'admin';
  if (environment.OUTRANK_TRUST_IDENTITY_HEADER !== 'true') return () => configured;
  return (headers) => {
    const claimed = headers[IDENTITY_HEADER];
    return typeof claimed === 'string' && claimed.length > 0 ? claimed : configured;
  };
}
