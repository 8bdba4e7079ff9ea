import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Authorizer } from '../lib/auth/authorizer';
import { storedPriorityClasses } from '../lib/auth/priority-class-lookup';
import { ObjectService } from '../lib/controllers/object-service';
import type { ApiAccess, ApiDependencies, ApiRequest } from '../lib/http/api-types';
import { consoleAssets, type ConsoleAssets } from '../lib/http/console-assets';
import { callerIdentity, type ApiEvent } from './caller-identity';
import { controllerContext, observedQueues, tenancySettings, whatIfSlots } from './context';
import { logger } from './observability';

function lowerCaseHeaders(headers: ApiEvent['headers']): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
}

/** An HTTP API (payload v2) or function URL event as the API reads a request; binary bodies (protobuf) kept as bytes. */
export function apiRequestOf(event: ApiEvent): ApiRequest {
  const bytes = event.body === undefined ? undefined : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
  return {
    method: event.requestContext.http.method,
    path: event.rawPath,
    query: event.queryStringParameters ?? {},
    headers: lowerCaseHeaders(event.headers),
    body: bytes?.toString('utf8'),
    ...(bytes ? { bodyBytes: bytes } : {}),
  };
}

/** With tenancy configured, the caller's identity and the authorizer; without, none (every caller is an admin). */
function accessOf(event: ApiEvent): { access?: ApiAccess } {
  const tenancy = tenancySettings();
  if (!tenancy) return {};
  return { access: { identity: callerIdentity(event), authorizer: new Authorizer(tenancy, storedPriorityClasses(controllerContext().store)) } };
}

let consoleFiles: ConsoleAssets | undefined | null = null;

/**
 * The console as `npm run build` bundled it (dist/console), or where OUTRANK_CONSOLE_DIR says; read once.
 * Without it the API serves no console.
 */
function bundledConsole(): ConsoleAssets | undefined {
  if (consoleFiles !== null) return consoleFiles;
  const folder = process.env.OUTRANK_CONSOLE_DIR ?? fileURLToPath(new URL('../dist/console/', import.meta.url));
  consoleFiles = existsSync(join(folder, 'app.js')) ? consoleAssets((file) => readFileSync(join(folder, file), 'utf8')) : undefined;
  return consoleFiles;
}

/** What the API needs to serve the event's caller, on this execution environment's shared context. */
export function apiDependenciesOf(event: ApiEvent): ApiDependencies {
  const context = controllerContext();
  return {
    objects: new ObjectService(context),
    store: context.store,
    events: context.events,
    queues: observedQueues(),
    config: context.config,
    ...(bundledConsole() ? { console: bundledConsole() } : {}),
    clock: context.clock,
    onInternalError: (error) => logger.error('internal error', error as Error),
    // Answered, and the client retries: counted for alarms, and logged without a stack.
    onStoreTimeout: (error) => {
      context.metrics.count('StoreTimeouts');
      logger.info('the object store did not answer', { reason: error.message });
    },
    caller: callerIdentity(event),
    whatIfSlots: whatIfSlots(),
    ...accessOf(event),
  };
}
