import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { delimiter } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSerializingProxy } from './serializing-proxy';

export interface AwsEndpoint {
  readonly url: string;
  /** True when this process started the emulator (and so stops it). */
  readonly started: boolean;
  stop(): Promise<void>;
}

export class MissingEmulatorError extends Error {
  constructor() {
    super(
      'No local AWS endpoint: set AWS_ENDPOINT_URL (LocalStack: http://localhost:4566) or install moto server ' +
        '(pip install "moto[server]") so that `moto_server` is on the PATH.',
    );
    this.name = 'MissingEmulatorError';
  }
}

async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function waitUntilServing(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`moto_server exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/moto-api/`);
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`moto_server did not answer on ${url} within ${timeoutMs} ms`);
}

/** Default credentials and region for an emulator, which accepts any; real ones in the environment win. */
export function useEmulatorCredentials(): void {
  process.env.AWS_ACCESS_KEY_ID ??= 'test';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
  process.env.AWS_REGION ??= 'us-east-1';
}

/**
 * The local AWS endpoint, behind a proxy that hands it one DynamoDB request at a time
 * (serializing-proxy.ts: moto's transactions are not isolated from each other): AWS_ENDPOINT_URL
 * when set (LocalStack or a running moto), otherwise a moto_server started on a free loopback port.
 * `stop()` stops the proxy, and the moto_server if it was started here.
 */
export async function startAwsEndpoint(): Promise<AwsEndpoint> {
  useEmulatorCredentials();
  const configured = process.env.AWS_ENDPOINT_URL;
  const emulator = configured ? { url: configured, stop: async () => {} } : await startMoto();
  const proxy = await startSerializingProxy(emulator.url).catch(async (error: unknown) => {
    await emulator.stop();
    throw error;
  });
  return {
    url: proxy.url,
    started: configured === undefined,
    stop: async () => {
      await proxy.close();
      await emulator.stop();
    },
  };
}

/**
 * The environment of a moto_server started here: its Python loads moto/sitecustomize.py, which keeps
 * moto's answers and takes away costs that grew with its tables and queues (see there).
 */
function withMotoPatches(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const patches = fileURLToPath(new URL('./moto', import.meta.url));
  return { ...env, PYTHONPATH: env.PYTHONPATH ? `${patches}${delimiter}${env.PYTHONPATH}` : patches };
}

async function startMoto(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freeLoopbackPort();
  const child = spawn('moto_server', ['-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore', env: withMotoPatches(process.env) });
  const spawnFailure = new Promise<never>((_, reject) => {
    child.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'ENOENT' ? new MissingEmulatorError() : error));
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      // moto holds everything in memory and has nothing to save; after a long test run a graceful
      // exit spends a minute freeing gigabytes of tables and queues.
      child.kill('SIGKILL');
    });
  const url = `http://localhost:${port}`;
  try {
    await Promise.race([waitUntilServing(url, child, 30_000), spawnFailure]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}
