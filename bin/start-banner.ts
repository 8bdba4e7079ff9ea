import { IDENTITY_HEADER } from '../functions/local/local-identity';

export interface BannerFacts {
  readonly apiUrl: string;
  readonly consoleBuilt: boolean;
  readonly endpointUrl: string;
  readonly endpointStarted: boolean;
  readonly identityHeaderTrusted: boolean;
}

/**
 * What `npm start` prints once it serves: one line with the URL it really serves on (the command line
 * needs `--server` for any other than http://localhost:8080), and a warning line when the identity
 * header is trusted.
 */
export function startBanner(facts: BannerFacts): string {
  const server = facts.apiUrl === 'http://localhost:8080' ? '' : ` --server ${facts.apiUrl}`;
  const consoleAt = facts.consoleBuilt ? `, console ${facts.apiUrl}/` : ' (console not built: npm run build)';
  const endpoint = `AWS endpoint ${facts.endpointUrl}${facts.endpointStarted ? ', moto_server of this run' : ''}`;
  const lines = [`outrank serving on ${facts.apiUrl}${consoleAt} (${endpoint}); try: npx outrank get bindings${server}; Ctrl-C stops`];
  if (facts.identityHeaderTrusted) lines.push(`WARNING: the ${IDENTITY_HEADER} header is trusted: any client can act as anyone (demos and tests only)`);
  return `${lines.join('\n')}\n`;
}
