import { fork, type ChildProcess } from 'node:child_process';
import { environmentFor } from '../../../functions/environment';
import type { TestAws } from '../../support/aws';
import type { WorkerReport } from './cycle-worker';

const WORKER = new URL('./cycle-worker.ts', import.meta.url).pathname;

interface Worker {
  readonly child: ChildProcess;
  readonly stderr: string[];
  readonly report: Promise<WorkerReport>;
}

/** Set for the one process that reads the objects table's stream (cycle-worker.ts). */
export const READS_STREAM = 'CYCLE_WORKER_READS_STREAM';

function startWorker(aws: TestAws, readsStream: boolean): Worker {
  const child = fork(WORKER, [], {
    execArgv: ['--import', 'tsx'],
    // The resources reach the functions as a deployed stack gives them: through the environment.
    env: { ...process.env, ...environmentFor(aws.resources), ...(readsStream ? { [READS_STREAM]: '1' } : {}) },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const stderr: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const report = new Promise<WorkerReport>((resolve, reject) => {
    child.on('message', (message: { kind: string }) => {
      if (message.kind === 'stopped') resolve(message as WorkerReport);
    });
    child.on('exit', (code) => reject(new Error(`worker exited with code ${code} before reporting:\n${stderr.join('')}`)));
  });
  // Rejections before stop() is awaited are seen there.
  report.catch(() => undefined);
  return { child, stderr, report };
}

function ready(worker: Worker): Promise<void> {
  return new Promise((resolve, reject) => {
    worker.child.on('message', (message: { kind: string }) => message.kind === 'ready' && resolve());
    worker.report.catch(reject);
  });
}

/** Processes each running the functions against the same tables and queues (see cycle-worker.ts). */
export class CycleWorkers {
  private constructor(private readonly workers: readonly Worker[]) {}

  static async start(aws: TestAws, count: number): Promise<CycleWorkers> {
    const workers = Array.from({ length: count }, (_, index) => startWorker(aws, index === 0));
    await Promise.all(workers.map(ready));
    return new CycleWorkers(workers);
  }

  /** Asks every process to stop after its current round and returns what each did. */
  async stop(): Promise<WorkerReport[]> {
    for (const worker of this.workers) worker.child.send('stop');
    return Promise.all(this.workers.map((worker) => worker.report));
  }
}
