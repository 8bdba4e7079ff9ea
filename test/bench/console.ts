/**
 * The web console with 1,000 bindings on 10 clusters: time from navigation to each page's rows in
 * Debian's Chromium (playwright-core), against the in-memory API, median of five loads; and what it
 * reads per refresh.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { buildConsole } from '../../bin/build-console.mjs';
import { consoleAssets } from '../../lib/http/console-assets';
import { startTestApi } from '../bin/support/api-server';
import { perReference } from './reference';
import { median } from './stats';

const BINDINGS = 1_000;
const CLUSTERS = 10;
const LOADS = 5;
const CHROMIUM = process.env.OUTRANK_CHROMIUM ?? '/usr/bin/chromium';

const PAGES = [
  ['Queue', '#/queue', 'table.pending tbody tr'],
  ['Clusters', '#/clusters', '[data-cluster] tbody tr'],
  ['Preemptions', '#/preemptions', 'h1#preemptions-title'],
] as const;

export async function consoleBenchmark(log: (line: string) => void): Promise<string> {
  if (!existsSync(CHROMIUM)) return `Not run: no Chromium at ${CHROMIUM} (apt-get install chromium).`;
  const built = await mkdtemp(join(tmpdir(), 'outrank-console-bench-'));
  await buildConsole(built);
  const api = await startTestApi('background', consoleAssets((file) => readFileSync(join(built, file), 'utf8')));
  const { system } = api;
  for (let index = 0; index < CLUSTERS; index += 1) {
    await system.objects.apply({ apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name: `member${index}` }, status: { resourceSummary: { allocatable: { cpu: '90', memory: '512Gi', pods: '500' } } } });
  }
  await system.objects.apply({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name: 'all', namespace: 'default' },
    spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }] },
  });
  for (let index = 0; index < BINDINGS; index += 1) {
    await system.objects.apply({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: `workload-${index}`, namespace: 'default' },
      spec: { replicas: 1, template: { spec: { containers: [{ name: 'main', resources: { requests: { cpu: '1' } } }] } } },
    });
  }
  await system.runUntilIdle();
  log(`console: ${BINDINGS} bindings on ${CLUSTERS} clusters (${CLUSTERS * 90} CPUs: some wait)`);

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const rows: string[] = [];
  try {
    for (const [name, hash, selector] of PAGES) {
      const times: number[] = [];
      for (let load = 0; load < LOADS; load += 1) {
        const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
        const started = performance.now();
        await page.goto(`${api.url}/${hash}`);
        await page.waitForSelector(selector, { timeout: 30_000 });
        times.push(performance.now() - started);
        await page.close();
      }
      rows.push(`| ${name} | ${Math.round(median(times))} | ${perReference(median(times) / 1000)} | ${Math.round(Math.max(...times))} |`);
      log(`console: ${name} ${Math.round(median(times))} ms`);
    }
  } finally {
    await browser.close();
    await api.close();
  }
  const bundle = readFileSync(join(built, 'app.js')).length;
  return [
    `\`npm run bench -- console\` (test/bench/console.ts): ${BINDINGS} bindings on ${CLUSTERS} clusters in the in-memory API, Debian's`,
    `Chromium headless, ${LOADS} loads per page; from navigation to the page's rows. The console bundle is ${(bundle / 1024).toFixed(0)} KiB;`,
    'each page lists and then watches only the lists it shows (the Queue: bindings; Clusters: bindings, clusters and allocations)',
    'and reads the queue status and its events (Preemptions: the Preempted events) every 2 s; the Queue draws the first 200 waiting bindings.',
    '',
    '| page | median ms | median ÷ reference | max ms |',
    '| --- | ---: | ---: | ---: |',
    ...rows,
  ].join('\n');
}
