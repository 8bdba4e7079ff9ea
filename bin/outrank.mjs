#!/usr/bin/env node
// The compiled command line (`npm run build`); from the TypeScript sources while it has not been built.
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/outrank.mjs', import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./cli.ts');
}
