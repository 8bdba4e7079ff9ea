import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { sleep } from './aws-state';

const root = new URL('../../../', import.meta.url).pathname;

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** `npm start` in a process of its own, as an operator runs it. */
export class LocalRuntime {
  private constructor(
    readonly child: ChildProcess,
    readonly url: string,
  ) {}

  /** `node bin/start.ts` as `npm start` runs it, on the test's endpoint and tables; `environment` adds to its variables. */
  static async start(prefix: string, port: number, environment: NodeJS.ProcessEnv = {}): Promise<LocalRuntime> {
    const child = spawn('node', ['--import', 'tsx', 'bin/start.ts'], {
      cwd: root,
      env: { ...process.env, OUTRANK_PREFIX: prefix, OUTRANK_PORT: String(port), OUTRANK_SCHEDULE_INTERVAL_MS: '1000', ...environment },
      stdio: 'ignore',
    });
    const runtime = new LocalRuntime(child, `http://127.0.0.1:${port}`);
    for (let tries = 0; ; tries += 1) {
      try {
        if ((await fetch(`${runtime.url}/version`, { signal: AbortSignal.timeout(2_000) })).ok) return runtime;
      } catch {
        // Not listening yet.
      }
      if (tries > 180) throw new Error('npm start did not answer within 90 s');
      await sleep(500);
    }
  }

  post(path: string, body: unknown): Promise<Response> {
    return fetch(`${this.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(30_000) });
  }

  kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.kill('SIGKILL');
    });
  }
}

