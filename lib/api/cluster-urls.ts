/**
 * Karmada's checks of a Cluster's URLs (pkg/apis/cluster/validation/validation.go), with its messages.
 * outrank keeps both as written and connects to neither.
 */

const ENDPOINT_FORM = '; desired format: hostname, hostname:port, IP or IP:port';

/** A URL's scheme as Go's url.Parse reads it (lowercased): letters, digits, "+", "-" or "." before the first ":", or none. */
function schemeOf(url: string): string {
  return /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase() ?? '';
}

/** ValidateClusterAPIEndpoint (without forcing https): a URL with a host, and no user, query or fragment. */
export function apiEndpointProblems(endpoint: string): string[] {
  // Without a scheme, Go's url.Parse reads the whole text as a path: there is no host.
  if (!schemeOf(endpoint)) return [`host must be provided${ENDPOINT_FORM}`];
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return [`apiEndpoint must be a valid URL: cannot parse ${JSON.stringify(endpoint)}${ENDPOINT_FORM}`];
  }
  const problems: string[] = [];
  if (!url.host) problems.push(`host must be provided${ENDPOINT_FORM}`);
  if (url.username || url.password) problems.push('user information is not permitted in the URL');
  if (url.hash) problems.push('fragments are not permitted in the URL');
  if (url.search) problems.push('query parameters are not permitted in the URL');
  return problems;
}

/** ValidateClusterProxyURL: an http, https or socks5 URL. */
export function proxyUrlProblems(proxyUrl: string): string[] {
  const scheme = schemeOf(proxyUrl);
  return ['http', 'https', 'socks5'].includes(scheme) ? [] : [`unsupported scheme ${JSON.stringify(scheme)}, must be http, https, or socks5`];
}
