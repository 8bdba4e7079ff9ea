import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Vitest's default on two cores is one file at a time; the AWS, process and browser tests mostly
    // wait (on the local endpoint, on timers, on child processes), so two files overlap well there.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    env: {
      // The functions run in-process: keep Powertools' metric and info output out of the test report.
      POWERTOOLS_METRICS_DISABLED: 'true',
      POWERTOOLS_LOG_LEVEL: 'WARN',
      // The SDK's notice that releases after January 2027 need Node.js 22 is in the README, not in every test log.
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
  },
});
