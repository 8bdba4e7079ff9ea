/**
 * The web console in a real headless Chromium (Debian's, driven by playwright-core) against the API
 * with example 000 applied: each page shows the rows the API holds, a preemption made while a page is
 * open appears on it, and a screenshot of each page is written to test-results/console/. Skipped,
 * saying so, where Chromium is not installed (.ci/run installs it).
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsole } from '../../bin/build-console.mjs';
import { startProxy } from '../../bin/client/proxy';
import { parseManifests } from '../../lib/api/manifest';
import { consoleAssets, type ConsoleAssets } from '../../lib/http/console-assets';
import { DEFAULT_ACCEPT_HOSTS, parseAcceptHosts } from '../../lib/http/loopback-guard';
import { loadScenario } from '../../lib/simulate/load-scenario';
import { runScenario } from '../../lib/simulate/run-scenario';
import { startTestApi, type TestApi } from '../bin/support/api-server';
import { outrank } from '../bin/support/run-cli';

const CHROMIUM = process.env.OUTRANK_CHROMIUM ?? '/usr/bin/chromium';
const ARTEFACTS = join(process.cwd(), 'test-results', 'console');

function chromiumInstalled(): boolean {
  if (existsSync(CHROMIUM)) return true;
  console.info(`console browser tests: no Chromium at ${CHROMIUM} (apt-get install chromium, or set OUTRANK_CHROMIUM); skipping`);
  return false;
}

let api: TestApi;
let assets: ConsoleAssets;
let built: string;
let browser: Browser;
const consoleErrors: string[] = [];

async function open(hash: string, viewport = { width: 1280, height: 800 }): Promise<Page> {
  const page = await browser.newPage({ viewport });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  await page.goto(`${api.url}/${hash}`);
  return page;
}

async function cells(page: Page, selector: string): Promise<string[][]> {
  return page.$$eval(`${selector} tbody tr`, (rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')));
}

describe.runIf(chromiumInstalled())('the web console in Chromium', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    built = await mkdtemp(join(tmpdir(), 'outrank-console-'));
    await buildConsole(built);
    assets = consoleAssets((file) => readFileSync(join(built, file), 'utf8'));
    api = await startTestApi('after-each-request', assets);
    expect((await outrank('apply', '-f', 'examples/000-binding-preemption.yaml', '--server', api.url)).code).toBe(0);
    // attacker.example resolves to this machine, as a DNS rebinding attacker makes it do.
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--host-resolver-rules=MAP attacker.example 127.0.0.1'] });
    await mkdir(ARTEFACTS, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  it('Queue: the pending bindings with band, priority, preemptibility and the Scheduled reason, kept up to date by watch; the queue depths', async () => {
    const page = await open('#/queue');
    await page.waitForSelector('table.pending tbody tr');
    const rows = await cells(page, 'table.pending');
    expect(rows.map((row) => [row[0], row[1], row[2], row[3], row[4], row[6]])).toEqual([
      ['default', 'default/batch-p2-deployment', '2', 'preemptible', 'Unschedulable', 'Unschedulable'],
    ]);
    expect((await cells(page, 'table.depths')).map((row) => row[0])).toContain('schedule-default');
    await page.screenshot({ path: join(ARTEFACTS, 'queue.png'), fullPage: true });
    // Kept up to date by watch, from the list's version, as an informer is.
    expect(api.requests.some((request) => /^GET \/apis\/work\.karmada\.io\/v1alpha2\/resourcebindings\?watch=1&resourceVersion=\d+/.test(request))).toBe(true);
    const tooBig = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'too-big', namespace: 'default' },
      spec: { replicas: 1, template: { spec: { priorityClassName: 'p0', containers: [{ name: 'main', image: 'busybox', resources: { requests: { cpu: '64' } } }] } } },
    };
    expect((await fetch(`${api.url}/apis/apps/v1/namespaces/default/deployments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(tooBig) })).status).toBe(201);
    await page.waitForSelector('[data-binding="default/too-big-deployment"]', { timeout: 10_000 });
    await fetch(`${api.url}/apis/apps/v1/namespaces/default/deployments/too-big`, { method: 'DELETE' });
    await page.waitForSelector('[data-binding="default/too-big-deployment"]', { state: 'detached', timeout: 10_000 });
    await page.close();
  });

  it('Clusters: placed against allocatable, and the bindings placed there by priority with their preemptibility', async () => {
    const page = await open('#/clusters');
    await page.waitForSelector('[data-cluster="member1"] tbody tr');
    const rows = await cells(page, '[data-cluster="member1"]');
    expect(rows.map((row) => [row[0], row[2]])).toEqual([
      ['urgent-deployment', '10'],
      ['batch-p3-deployment', '3'],
      ['batch-p1-deployment', '1'],
      ['batch-p0-deployment', '0'],
    ]);
    expect(await page.textContent('[data-cluster="member1"] .usage')).toContain('cpu');
    await page.screenshot({ path: join(ARTEFACTS, 'clusters.png'), fullPage: true });
    await page.close();
  });

  it('What if: shows the victims outrank simulate finds for the same manifest, and writes nothing', async () => {
    const manifest = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: another-urgent, namespace: default}',
      'spec:',
      '  replicas: 1',
      '  template:',
      '    spec:',
      '      priorityClassName: urgent',
      '      containers: [{name: main, image: busybox, resources: {requests: {cpu: "1"}}}]',
    ].join('\n');
    const example = loadScenario(await readFile('examples/000-binding-preemption.yaml', 'utf8'));
    const simulated = await runScenario({ ...example, steps: [...example.steps, { apply: parseManifests(manifest) }] });
    const preempted = simulated.events.filter((event) => event.reason === 'Preempted').map((event) => `${event.object.namespace}/${event.object.name}`);
    const expected = preempted.slice(1); // the example's own preemption came first
    const before = await fetch(`${api.url}/apis/work.karmada.io/v1alpha2/resourcebindings`).then((response) => response.json());

    const page = await open('#/what-if');
    await page.fill('#manifests', manifest);
    await page.click('button[type=submit]');
    await page.waitForSelector('.what-if-result');
    expect(await page.$$eval('.victims li', (items) => items.map((item) => item.textContent))).toEqual(expected);
    expect(expected).toEqual(['default/batch-p0-deployment']);
    const after = await fetch(`${api.url}/apis/work.karmada.io/v1alpha2/resourcebindings`).then((response) => response.json());
    expect(after).toEqual(before);
    await page.screenshot({ path: join(ARTEFACTS, 'what-if.png'), fullPage: true });
    await page.close();
  });

  it('What if, as a tenant: the Cluster and the restricted PriorityClass it may not write are listed refused with their rules, and not tried', async () => {
    const tenant = 'arn:aws:iam::1:role/team-default';
    const tenantApi = await startTestApi('after-each-request', assets, { admins: ['admin'], tenants: [{ principals: [tenant], namespaces: ['default'] }], restrictedPriorityClasses: ['urgent'] });
    try {
      const [setUp] = loadScenario(await readFile('examples/000-binding-preemption.yaml', 'utf8')).steps as [{ apply: unknown[] }];
      for (const object of setUp.apply) await tenantApi.system.objects.apply(object);
      await tenantApi.system.runUntilIdle();
      const manifests = [
        'apiVersion: cluster.karmada.io/v1alpha1',
        'kind: Cluster',
        'metadata: {name: member2}',
        'status: {resourceSummary: {allocatable: {cpu: "10", memory: 64Gi, pods: "110"}}}',
        '---',
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata: {name: another-urgent, namespace: default}',
        'spec:',
        '  replicas: 1',
        '  template:',
        '    spec:',
        '      priorityClassName: urgent',
        '      containers: [{name: main, image: busybox, resources: {requests: {cpu: "1"}}}]',
      ].join('\n');
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, extraHTTPHeaders: { 'x-outrank-identity': tenant } });
      await page.goto(`${tenantApi.url}/#/what-if`);
      await page.fill('#manifests', manifests);
      await page.click('button[type=submit]');
      await page.waitForSelector('.what-if-result');
      const refused = await page.$$eval('.rejections li', (items) => items.map((item) => item.textContent));
      expect(refused).toEqual([
        `Cluster/member2: user "${tenant}" cannot create clusters "member2" at the cluster scope: only admins write cluster-scoped objects`,
        `Deployment/another-urgent: user "${tenant}" cannot create deployments "another-urgent" in namespace "default": spec.template.spec.priorityClassName: PriorityClass "urgent" is restricted and not allowed in namespace "default"`,
      ]);
      expect(await page.$$eval('.victims li', (items) => items.length)).toBe(0);
      expect(await page.textContent('.what-if-result')).toContain('Nothing would be preempted.');
      await page.close();
    } finally {
      await tenantApi.close();
    }
  });

  it('Preemptions: a preemption made while the page is open appears, with the priorities it was decided on', async () => {
    const page = await open('#/preemptions');
    await page.waitForSelector('h1#preemptions-title');
    const before = (await cells(page, 'table.preemptions').catch(() => [])).length;
    const preemptor = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'late-urgent', namespace: 'default' },
      spec: { replicas: 1, template: { spec: { priorityClassName: 'urgent', containers: [{ name: 'main', image: 'busybox', resources: { requests: { cpu: '1' } } }] } } },
    };
    // A minute later than the preemptions of the example, so that it is the newest by its time.
    api.system.clock.advance(60_000);
    const created = await fetch(`${api.url}/apis/apps/v1/namespaces/default/deployments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(preemptor) });
    expect(created.status).toBe(201);
    await page.waitForSelector('[data-victim] >> nth=' + before, { timeout: 10_000 });
    const rows = await cells(page, 'table.preemptions');
    expect(rows).toHaveLength(before + 1);
    expect(rows[0]![1]).toBe('default/late-urgent-deployment');
    expect(Number(rows[0]![2])).toBeGreaterThan(Number(rows[0]![4]));
    await page.screenshot({ path: join(ARTEFACTS, 'preemptions.png'), fullPage: true });
    await page.close();
  });

  it('a binding\'s page shows its history, and is readable on a narrow screen', async () => {
    const page = await open('#/bindings/default/batch-p2-deployment', { width: 390, height: 844 });
    await page.waitForSelector('table.history tbody tr');
    expect((await cells(page, 'table.history')).map((row) => row[2])).toContain('ScheduleBindingFailed');
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(ARTEFACTS, 'binding-narrow.png'), fullPage: true });
    await page.close();
  });

  it('suspends a waiting binding from its page, through the API\'s write path (scheduling suspension (003))', async () => {
    const page = await open('#/bindings/default/batch-p2-deployment');
    await page.click('button:has-text("Suspend scheduling")');
    await page.waitForSelector('button:has-text("Resume scheduling")');
    const stored = (await fetch(`${api.url}/apis/work.karmada.io/v1alpha2/namespaces/default/resourcebindings/batch-p2-deployment`).then((response) => response.json())) as { spec: { suspension?: object } };
    expect(stored.spec.suspension).toEqual({ scheduling: true });
    expect(api.requests).toContain('PATCH /apis/work.karmada.io/v1alpha2/namespaces/default/resourcebindings/batch-p2-deployment');
    await page.click('button:has-text("Resume scheduling")');
    await page.waitForSelector('button:has-text("Suspend scheduling")');
    await page.close();
  });

  it('through outrank proxy: the console works from its own origin; a page under another name (DNS rebinding) or of another origin is refused', async () => {
    const proxy = await startProxy({ server: api.url, port: 0, signer: undefined, consoleDir: built, guard: { acceptHosts: parseAcceptHosts(DEFAULT_ACCEPT_HOSTS), setting: '--accept-hosts' } });
    const page = await browser.newPage();
    try {
      // The console's PATCH carries the proxy's own origin, and goes through.
      await page.goto(`${proxy.url}/#/bindings/default/batch-p2-deployment`);
      await page.click('button:has-text("Suspend scheduling")');
      await page.waitForSelector('button:has-text("Resume scheduling")');
      await page.click('button:has-text("Resume scheduling")');
      await page.waitForSelector('button:has-text("Suspend scheduling")');

      const rebound = await page.goto(`http://attacker.example:${new URL(proxy.url).port}/`);
      expect(rebound?.status()).toBe(403);
      expect(await rebound?.json()).toMatchObject({ kind: 'Status', reason: 'Forbidden' });

      // A page of another origin (the API's own address) writes blind and tries to read.
      await page.goto(`${api.url}/version`);
      const read = await page.evaluate(async (target) => {
        const body = JSON.stringify({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'stolen' }, value: 1 });
        await fetch(`${target}/apis/scheduling.k8s.io/v1/priorityclasses?fieldManager=attacker`, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body });
        try {
          return await (await fetch(`${target}/apis/scheduling.k8s.io/v1/priorityclasses?limit=7`)).text();
        } catch {
          return 'refused';
        }
      }, proxy.url);
      expect(read).toBe('refused');
      expect(api.requests.filter((request) => request.includes('fieldManager=attacker') || request.includes('limit=7'))).toEqual([]);
    } finally {
      await page.close();
      await proxy.close();
    }
  });

  it('pages are reached by keyboard, and no page logged an error', async () => {
    const page = await open('#/queue');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForSelector('h1#clusters-title');
    await page.close();
    expect(consoleErrors).toEqual([]);
    expect((await readFile(join(ARTEFACTS, 'queue.png'))).length).toBeGreaterThan(1_000);
  });
});
