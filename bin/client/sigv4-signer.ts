import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';

export interface SignableRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** Adds whatever headers a deployed API's authorization needs. */
export interface RequestSigner {
  sign(request: SignableRequest): Promise<Record<string, string>>;
}

/** The SHA-256 the signer asks for, on node:crypto; HMAC when given a secret. */
class Sha256 {
  private readonly hash: Hash | Hmac;

  constructor(secret?: SourceData) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }

  update(data: SourceData): void {
    this.hash.update(bytes(data));
  }

  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
}

type SourceData = string | ArrayBuffer | ArrayBufferView;

function bytes(data: SourceData): string | Uint8Array {
  if (typeof data === 'string') return data;
  return ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);
}

const EXECUTE_API_HOST = /^[a-z0-9]+\.execute-api\.([a-z0-9-]+)\.amazonaws\.com$/;
const FUNCTION_URL_HOST = /^[a-z0-9]+\.lambda-url\.([a-z0-9-]+)\.on\.aws$/;

/** How a deployed endpoint is signed: the HTTP API (execute-api) or the watch function's URL (lambda), by its host. */
export function signingOf(url: URL): { readonly service: 'execute-api' | 'lambda'; readonly region: string } | undefined {
  const api = EXECUTE_API_HOST.exec(url.hostname)?.[1];
  if (api) return { service: 'execute-api', region: api };
  const functionUrl = FUNCTION_URL_HOST.exec(url.hostname)?.[1];
  return functionUrl ? { service: 'lambda', region: functionUrl } : undefined;
}

/**
 * Signs requests with SigV4 for the IAM authorization of the deployed HTTP API (execute-api) or of the
 * watch function's URL (lambda), using the credentials the AWS CLI would use (environment, profile,
 * SSO, instance role).
 */
export function sigV4Signer(region: string, service: 'execute-api' | 'lambda' = 'execute-api'): RequestSigner {
  const signer = new SignatureV4({ service, region, credentials: defaultProvider(), sha256: Sha256 });
  return {
    async sign({ method, url, headers, body }) {
      const signed = await signer.sign({
        method,
        protocol: url.protocol,
        hostname: url.hostname,
        ...(url.port ? { port: Number(url.port) } : {}),
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: { ...headers, host: url.host },
        ...(body === undefined ? {} : { body }),
      });
      return signed.headers;
    },
  };
}
