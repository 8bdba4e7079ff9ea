/**
 * The web console at fleet size: the scale scenario (100 clusters, 10,000 running Deployments, then 500
 * urgent ones that preempt; every tenth cluster reports GPUs too) in the in-memory API, and each page's
 * time from navigation to its rows and charts in Debian's Chromium (playwright-core), median of five
 * loads, beside this host's reference time (../shared/bench/calibrate.mjs).
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { buildConsole } from '../../bin/build-console.mjs';
import { listBindings } from '../../lib/controllers/binding-requests';
import { consoleAssets } from '../../lib/http/console-assets';
import { startTestApi } from '../bin/support/api-server';
import { referenceSeconds } from './reference';
import { scaleScenario } from './scale-scenario';
import { fmt, median, table } from './stats';

const SIZE = { clusters: 100, workloads: 10_000, preemptors: 500 };
const LOADS = 5;
const CHROMIUM = process.env.OUTRANK_CHROMIUM ?? '/usr/bin/chromium';

/** Every tenth cluster reports GPUs as well: the Clusters page then draws a fourth resource. */
function withGpus(object: unknown): unknown {
  const cluster = object as { kind?: string; metadata: { name: string }; status: { resourceSummary: { allocatable: Record<string, string> } } };
  if (cluster.kind !== 'Cluster' || !cluster.metadata.name.endsWith('0')) return object;
  return { ...cluster, status: { resourceSummary: { allocatable: { ...cluster.status.resourceSummary.allocatable, 'nvidia.com/gpu': '8' } } } };
}

/** Each page, and what shows it is drawn: its rows (and, drawn in the same render, its charts). */
function pages(preemptor: string, victim: string): ReadonlyArray<readonly [string, string, string]> {
  return [
    ['Queue', '#/queue', 'table.pending tbody tr'],
    ['Clusters', '#/clusters', 'table.clusters tbody tr'],
    ['A cluster', '#/clusters/member-000', 'table.placed tbody tr'],
    ['Preemptions', '#/preemptions', 'table.preemptions tbody tr'],
    ['A preemptor', `#/bindings/fleet/${preemptor}`, 'table.victims tbody tr'],
    ['A victim', `#/bindings/fleet/${victim}`, '.preemptors a'],
    ['What if', '#/what-if', 'textarea'],
  ];
}

/** Records, in the page, when `selector` first matches: milliseconds from the navigation's start. */
const shownAt = (selector: string) =>
  `new MutationObserver((_, observer) => { if (document.querySelector(${JSON.stringify(selector)})) { window.outrankShown = performance.now(); observer.disconnect(); } }).observe(document, { childList: true, subtree: true });`;

export async function consoleBenchmark(log: (line: string) => void): Promise<string> {
  if (!existsSync(CHROMIUM)) return `Not run: no Chromium at ${CHROMIUM} (apt-get install chromium).`;
  const built = await mkdtemp(join(tmpdir(), 'outrank-console-bench-'));
  await buildConsole(built);
  const api = await startTestApi('background', consoleAssets((file) => readFileSync(join(built, file), 'utf8')));
  const { system } = api;
  // The wall clock's time, as the local runtime's: the pages age events and chart the last hour against it.
  system.clock.advance(Date.now() - system.clock.now());
  log(`console: ${SIZE.clusters} clusters, ${SIZE.workloads} running workloads, ${SIZE.preemptors} preemptors`);
  for (const step of scaleScenario(SIZE).steps) {
    if (!('apply' in step)) continue;
    for (const manifest of step.apply) await system.objects.apply(withGpus(manifest));
    await system.runUntilIdle();
  }
  if (system.handlerErrors.length > 0) throw new Error(`console: handler errors: ${system.handlerErrors[0]!.message}`);
  const bindings = (await listBindings(system.context)).length;
  const preemptions = await system.events.list({ reason: 'Preempted' });
  const preempted = preemptions.length;
  const [first] = preemptions;
  if (!first?.related) throw new Error('console: the scale scenario preempted nothing');
  log(`console: ${bindings} bindings, ${preempted} preemptions`);

  const reference = referenceSeconds();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const rows: Array<Array<string | number>> = [];
  try {
    for (const [name, hash, selector] of pages(first.related.name, first.involvedObject.name)) {
      const inPage: number[] = [];
      const driven: number[] = [];
      for (let load = 0; load < LOADS; load += 1) {
        const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
        await page.addInitScript(shownAt(selector));
        const started = performance.now();
        await page.goto(`${api.url}/${hash}`);
        await page.waitForSelector(selector, { timeout: 60_000 });
        driven.push(performance.now() - started);
        inPage.push(await page.evaluate<number>('window.outrankShown'));
        await page.close();
      }
      const ms = median(inPage);
      rows.push([name, `\`${hash.replace(/[^/]+$/, (last) => (last.length > 20 ? '…' : last))}\``, Math.round(ms), Math.round(Math.max(...inPage)), Math.round(median(driven)), reference ? fmt(ms / 1000 / reference) : '–']);
      log(`console: ${name} ${Math.round(ms)} ms`);
    }
  } finally {
    await browser.close();
    await api.close();
  }
  const bundle = readFileSync(join(built, 'app.js')).length;
  return [
    `\`npm run bench -- console\` (test/bench/console.ts): the scale scenario in the in-memory API — ${SIZE.clusters} clusters (every tenth`,
    `with 8 GPUs), ${bindings.toLocaleString('en')} bindings, ${preempted} preemptions in the last hour — in Debian's Chromium headless at 1280 × 800,`,
    `${LOADS} loads per page, from the navigation's start to the page's rows, timed in the page (its charts are drawn in the same`,
    'render); "driven" adds what the browser\'s driver takes to open the page and see them. The console bundle is',
    `${(bundle / 1024).toFixed(0)} KiB. Each page lists and then watches only the lists it shows, and reads the queue status and the events`,
    'it shows every 2 s; tables draw at most 200 rows (the Queue: those the scheduler takes first; Preemptions: the newest), charts a',
    'fixed number of marks (60 minutes, 11 fill bins) whatever the fleet’s size.',
    '',
    `Reference time of this host (../shared/bench/calibrate.mjs, same run): ${reference ? `${fmt(reference)} s` : 'not available'}.`,
    '',
    table(['page', 'hash', 'median ms', 'max ms', 'driven, median ms', 'median ÷ reference'], rows),
  ].join('\n');
}
