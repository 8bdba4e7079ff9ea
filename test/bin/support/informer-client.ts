import { KubeConfig } from '@kubernetes/client-node';

/** A client library's configuration for the API at `url`: one cluster, one user without credentials. */
export function kubeConfigFor(url: string): KubeConfig {
  const config = new KubeConfig();
  config.loadFromOptions({
    clusters: [{ name: 'outrank', server: url, skipTLSVerify: true }],
    users: [{ name: 'tester' }],
    contexts: [{ name: 'outrank', cluster: 'outrank', user: 'tester' }],
    currentContext: 'outrank',
  });
  return config;
}

/** Waits until `condition` holds, checking every 20 ms; fails naming `what` after 10 s. */
export async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 10_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
