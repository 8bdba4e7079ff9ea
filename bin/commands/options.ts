import { InvalidArgumentError, Option } from 'commander';
import { ApiClient } from '../client/api-client';
import { executeApiRegion, sigV4Signer } from '../client/sigv4-signer';

/** Where `npm start` serves the API unless OUTRANK_PORT says otherwise. */
const DEFAULT_SERVER = 'http://localhost:8080';

export interface ServerOptions {
  readonly server: string;
}

export function serverOption(): Option {
  return new Option('--server <url>', 'address of the outrank API').env('OUTRANK_SERVER').default(DEFAULT_SERVER);
}

export function namespaceOption(): Option {
  return new Option('-n, --namespace <namespace>', 'namespace of the request, and of objects that name none').default('default');
}

/**
 * A deployed API (https://<id>.execute-api.<region>.amazonaws.com) takes IAM-signed requests only;
 * OUTRANK_AWS_REGION asks for signing behind a custom domain too.
 */
export function connect(options: ServerOptions): ApiClient {
  const url = URL.canParse(options.server) ? new URL(options.server) : undefined;
  const region = process.env.OUTRANK_AWS_REGION ?? (url ? executeApiRegion(url) : undefined);
  return new ApiClient(options.server, region ? sigV4Signer(region) : undefined);
}

const DURATION = /^(\d+)(ms|s|m|h)$/;
const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const;

/** A duration as kubectl's --timeout takes it ("30s", "2m"), in milliseconds. */
export function parseDuration(text: string): number {
  const match = DURATION.exec(text.trim());
  if (!match) throw new InvalidArgumentError('must be a duration such as "30s", "5m" or "1h"');
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}
