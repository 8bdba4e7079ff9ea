import { execFileSync } from 'node:child_process';

/** Whether kubectl is on the PATH; a suite that needs it says so when it is skipped. */
export function kubectlInstalled(suite: string): boolean {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return true;
  } catch {
    console.info(`${suite}: kubectl is not installed; skipping`);
    return false;
  }
}
