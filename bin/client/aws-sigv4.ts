import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import type { RequestSigner } from './sigv4-signer';

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

/** The AWS SDK's SigV4 signer for `service` in `region`, with the credentials the AWS CLI would use (sigV4Signer loads it when first needed). */
export function awsSigV4Signer(region: string, service: 'execute-api' | 'lambda'): RequestSigner {
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
