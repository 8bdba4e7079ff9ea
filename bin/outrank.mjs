#!/usr/bin/env node
// Runs the TypeScript command line directly; tsx compiles it on the fly.
import { register } from 'tsx/esm/api';

register();
await import('./cli.ts');
