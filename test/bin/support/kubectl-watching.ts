import { spawn, type ChildProcess } from 'node:child_process';

/** A kubectl that runs until stopped (kubectl get -w), its rows read as they are printed. */
export interface KubectlWatching {
  /** The rows printed so far, as cells (columns are three spaces apart). */
  rows(): string[][];
  /** Waits until the rows printed satisfy `done` (15 s at most), and returns them. */
  until(done: (printed: string[][]) => boolean): Promise<string[][]>;
}

/** Starts watching kubectls against a server, and stops every one started. */
export function kubectlWatches(): { watching: (server: string, ...args: string[]) => KubectlWatching; stop: () => void } {
  const running: ChildProcess[] = [];
  const watching = (server: string, ...args: string[]): KubectlWatching => {
    const child = spawn('kubectl', [...args, '--server', server], { env: { ...process.env, KUBECONFIG: '/dev/null' } });
    running.push(child);
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const rows = () => output.trimEnd().split('\n').filter((line) => line !== '').map((line) => line.split(/\s{2,}/));
    return {
      rows,
      async until(done) {
        for (let waited = 0; !done(rows()); waited += 20) {
          if (child.exitCode !== null || waited > 15_000) throw new Error(`kubectl printed ${JSON.stringify(output)}, and on stderr ${JSON.stringify(errors)}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return rows();
      },
    };
  };
  return { watching, stop: () => running.splice(0).forEach((child) => child.kill()) };
}
