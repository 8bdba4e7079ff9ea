/**
 * How every handler in functions/ is bundled, shared by the stack (handler-function.ts) and the bundle
 * benchmark (test/bench/bundles.ts); nothing here imports aws-cdk-lib.
 */

/** The handlers in functions/, each exporting `handler`. */
export const HANDLERS = ['api', 'watch', 'policy-change', 'binding-enqueue', 'schedule-cycle', 'reconcile'] as const;
export type HandlerName = (typeof HANDLERS)[number];

/** The functions' runtime, nodejs22.x (handler-function.ts); the command line, built for the machine it runs on, targets Node.js 20 (bin/build.mjs). */
export const BUNDLE_TARGET = 'node22';
/** Prefer the ESM builds of dependencies; the CommonJS ones left still find a require(). */
export const MAIN_FIELDS = ['module', 'main'];
export const REQUIRE_SHIM = "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";
/** The Node.js runtime provides AWS SDK v3; leaving it out keeps each bundle under 500 KB and its cold start short. */
export const EXTERNAL_MODULES = ['@aws-sdk/*'];
