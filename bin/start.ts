import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { OutrankSettingsWithTenancy } from '../functions/environment';
import { stopOnSignals } from '../functions/local/stop-on-signals';
import { startBanner } from './start-banner';

// Read by Powertools when the functions load: metrics stay off and logs quiet unless asked for.
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
// The SDK's notice that its releases after January 2027 need Node.js 22 is in the README, not in every start.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const { startLocalRuntime } = await import('../functions/local/local-runtime');
const { MissingEmulatorError } = await import('../functions/local/aws-endpoint');

/**
 * `npm start`: the whole system on this machine. OUTRANK_PORT picks the API port (default 8080),
 * OUTRANK_SETTINGS_FILE a JSON file of settings (scheduler and tenancy), AWS_ENDPOINT_URL an emulator
 * already running, OUTRANK_SCHEDULE_INTERVAL_MS, OUTRANK_RECONCILE_INTERVAL_MS and OUTRANK_RESYNC_INTERVAL_MS
 * the periods of schedule-cycle, the reconcile and the template resync (default a minute, a minute and
 * half an hour, as the stack's schedules), OUTRANK_WATCHES_PER_CALLER how many watches one caller may hold open
 * (default 20). Every request comes from OUTRANK_IDENTITY (default "admin"); with
 * OUTRANK_TRUST_IDENTITY_HEADER=true from the x-outrank-identity header instead, for demos and tests
 * only (see functions/local/local-identity.ts). OUTRANK_ACCEPT_HOSTS widens the Host names served
 * (default the loopback names; see lib/http/loopback-guard.ts).
 */
async function main(): Promise<void> {
  const port = Number(process.env.OUTRANK_PORT ?? 8080);
  const settingsFile = process.env.OUTRANK_SETTINGS_FILE;
  const settings = settingsFile ? (JSON.parse(await readFile(settingsFile, 'utf8')) as OutrankSettingsWithTenancy) : undefined;
  const runtime = await startLocalRuntime({
    port,
    prefix: process.env.OUTRANK_PREFIX ?? 'outrank',
    settings,
    scheduleIntervalMs: Number(process.env.OUTRANK_SCHEDULE_INTERVAL_MS ?? 60_000),
    reconcileIntervalMs: Number(process.env.OUTRANK_RECONCILE_INTERVAL_MS ?? 60_000),
    resyncIntervalMs: Number(process.env.OUTRANK_RESYNC_INTERVAL_MS ?? 30 * 60_000),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(
    startBanner({
      apiUrl: runtime.apiUrl,
      consoleBuilt: existsSync(new URL('../dist/console/app.js', import.meta.url)),
      endpointUrl: runtime.endpoint.url,
      endpointStarted: runtime.endpoint.started,
      identityHeaderTrusted: process.env.OUTRANK_TRUST_IDENTITY_HEADER === 'true',
    }),
  );
  stopOnSignals(() => runtime.stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof MissingEmulatorError ? '' : 'outrank failed to start: '}${(error as Error).message}\n`);
  process.exit(1);
});
