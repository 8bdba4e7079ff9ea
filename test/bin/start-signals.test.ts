/**
 * `npm start` stops on SIGINT or SIGTERM together with the moto_server it started. Ctrl-C reaches the
 * process from the terminal and again through npm and tsx: a second signal while it stops must not end it
 * before that moto_server is stopped, or the emulator is left running with nobody to stop it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { freePort, LocalRuntime } from '../reliability/support/local-runtime-process';

/** The processes whose parent is `pid`, read from /proc. */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        // pid (comm) state ppid …: comm may hold spaces, so read past its closing parenthesis.
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return parent === pid ? [Number(name)] : [];
      } catch {
        return [];
      }
    });
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(process.platform !== 'linux')('npm start stopped by a signal', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'a second %s while it stops still leaves no moto_server of its own running',
    async (signal) => {
      // Without AWS_ENDPOINT_URL, npm start runs a moto_server of its own.
      const runtime = await LocalRuntime.start(`signals-${signal.toLowerCase()}`, await freePort(), { AWS_ENDPOINT_URL: undefined });
      const { child } = runtime;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      let emulators: number[] = [];
      try {
        emulators = childrenOf(child.pid!).filter((pid) => commandOf(pid).includes('moto_server'));
        expect(emulators).toHaveLength(1);

        child.kill(signal);
        await new Promise((resolve) => setTimeout(resolve, 50));
        child.kill(signal);
        await exited;

        expect(child.exitCode).toBe(0);
        expect(isRunning(emulators[0]!)).toBe(false);
      } finally {
        await runtime.kill();
        for (const pid of emulators.filter(isRunning)) process.kill(pid, 'SIGKILL');
      }
    },
    120_000,
  );
});
