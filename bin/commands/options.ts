import { InvalidArgumentError, Option } from 'commander';
import { ApiClient } from '../client/api-client';
import { sigV4Signer, signingOf, type RequestSigner } from '../client/sigv4-signer';
import type { CommandContext } from './context';

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
 * The signer a server needs: a deployed API (https://<id>.execute-api.<region>.amazonaws.com) or the
 * watch function's URL (https://<id>.lambda-url.<region>.on.aws) takes IAM-signed requests only;
 * OUTRANK_AWS_REGION asks for signing (execute-api) behind a custom domain too.
 */
export function signerFor(server: string): RequestSigner | undefined {
  const url = URL.canParse(server) ? new URL(server) : undefined;
  const signing = url ? signingOf(url) : undefined;
  const region = process.env.OUTRANK_AWS_REGION ?? signing?.region;
  return region ? sigV4Signer(region, signing?.service) : undefined;
}

/** A client of the server the options name; with a context, the server's warnings are printed as kubectl prints them. */
export function connect(options: ServerOptions, context?: CommandContext): ApiClient {
  return new ApiClient(options.server, signerFor(options.server), context && ((text) => context.err(`Warning: ${text}`)));
}

const DURATION = /^(\d+)(ms|s|m|h)$/;
const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const;

/** A duration as kubectl's --timeout takes it ("30s", "2m"), in milliseconds. */
export function parseDuration(text: string): number {
  const match = DURATION.exec(text.trim());
  if (!match) throw new InvalidArgumentError('must be a duration such as "30s", "5m" or "1h"');
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}
