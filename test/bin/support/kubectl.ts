import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface KubectlRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export type Kubectl = (...args: string[]) => Promise<KubectlRun>;

/**
 * The real kubectl against `server`, with no kubeconfig and a home (so a discovery and OpenAPI cache)
 * of its own: no document of another server is reused. `env` adds to the environment (an identity).
 * The server comes first, so that what follows a `--` (a container's command) stays the command's.
 */
export async function kubectlFor(server: () => string, env: Record<string, string> = {}): Promise<Kubectl> {
  const home = await mkdtemp(join(tmpdir(), 'outrank-kubectl-'));
  return (...args) =>
    new Promise((resolve) => {
      execFile('kubectl', ['--server', server(), ...args], { env: { ...process.env, KUBECONFIG: '/dev/null', HOME: home, ...env } }, (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });
}
