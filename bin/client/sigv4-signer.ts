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
  // The AWS SDK is loaded by the first request signed, from a chunk of the compiled command line of its
  // own: no command reads it at start, and one that signs nothing never does. An import that failed
  // (its chunk replaced by a build while this process ran) is tried again at the next request.
  let signer: Promise<RequestSigner> | undefined;
  return {
    async sign(request) {
      signer ??= import('./aws-sigv4').then(
        ({ awsSigV4Signer }) => awsSigV4Signer(region, service),
        (error: unknown) => {
          signer = undefined;
          throw error;
        },
      );
      return (await signer).sign(request);
    },
  };
}
