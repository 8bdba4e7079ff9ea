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

/** A GPU cluster whose four GPUs one Deployment takes, and another that waits for one more, in namespace ml. */
const GPU_FLEET = [
  { apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name: 'gpu1' }, status: { resourceSummary: { allocatable: { cpu: '32', memory: '128Gi', pods: '110', 'nvidia.com/gpu': '4' } } } },
  {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name: 'gpus', namespace: 'ml' },
    spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }], placement: { clusterAffinity: { clusterNames: ['gpu1'] } } },
  },
  ...(
    [
      ['trainer', 4],
      ['trainer-extra', 1],
    ] as const
  ).map(([name, replicas]) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'ml' },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'trainer', resources: { requests: { cpu: '1', 'nvidia.com/gpu': '1' }, limits: { 'nvidia.com/gpu': '1' } } }] } } },
  })),
];

interface Layout {
  /** How much wider than the screen the page is. */
  readonly overflow: number;
  /** Elements out of the screen, but for what is inside a table's scrolling region. */
  readonly cut: string[];
  readonly regions: ReadonlyArray<{ readonly overflowX: string; readonly wider: boolean }>;
}

/** The page's layout as Layout, run in the page (a string: this file is not compiled with the DOM's types). */
const LAYOUT = `(() => {
  const width = document.documentElement.clientWidth;
  const cut = [];
  for (const element of document.querySelectorAll('body *')) {
    const region = element.closest('.table-scroll');
    if (region && region !== element) continue;
    const box = element.getBoundingClientRect();
    if (box.width > 0 && (box.right > width + 0.5 || box.left < -0.5)) cut.push(element.tagName + ' ' + (element.getAttribute('class') ?? ''));
  }
  const regions = [...document.querySelectorAll('.table-scroll')].map((region) => ({ overflowX: getComputedStyle(region).overflowX, wider: region.scrollWidth > region.clientWidth }));
  return { overflow: document.documentElement.scrollWidth - width, cut, regions };
})()`;

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
    // The API's time is the wall clock's, as in the local runtime: the page ages and charts against it (the Date header).
    api.system.clock.advance(Date.now() - api.system.clock.now());
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
    const before = api.requests.length;
    const page = await open('#/queue');
    await page.waitForSelector('table.pending tbody tr');
    const rows = await cells(page, 'table.pending');
    expect(rows.map((row) => [row[0], row[1], row[2], row[3], row[4], row[6]])).toEqual([
      ['default', 'default/batch-p2-deployment', '2', 'preemptible', 'Unschedulable', 'Unschedulable'],
    ]);
    expect((await cells(page, 'table.depths')).map((row) => row[0])).toContain('schedule-default');
    // The last hour, as inline SVG: what waits now is the last minute's column of its band.
    const now = page.locator('.waiting-chart rect[data-column="59"]');
    expect(await now.evaluateAll((bars) => bars.map((bar) => [bar.getAttribute('data-series'), bar.getAttribute('data-value')]))).toEqual([['default', '1']]);
    expect(await page.locator('.queue-chart svg').count()).toBe(1);
    await page.screenshot({ path: join(ARTEFACTS, 'queue.png'), fullPage: true });
    // Kept up to date by watch, from the list's version, as an informer is.
    expect(api.requests.some((request) => /^GET \/apis\/work\.karmada\.io\/v1alpha2\/resourcebindings\?watch=1&resourceVersion=\d+/.test(request))).toBe(true);
    // Only what waits is listed (placed nowhere), not every binding; the watch reads the changes after that list.
    const bindingReads = api.requests.slice(before).filter((request) => request.startsWith('GET /apis/work.karmada.io/v1alpha2/resourcebindings?'));
    const bindingLists = bindingReads.filter((request) => !request.includes('watch=1'));
    expect(bindingLists.length).toBeGreaterThan(0);
    expect(bindingLists.filter((request) => !request.includes('fieldSelector=spec.clusters.name%3D&'))).toEqual([]);
    const tooBig = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'too-big', namespace: 'default' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'too-big' } }, template: { metadata: { labels: { app: 'too-big' } }, spec: { priorityClassName: 'p0', containers: [{ name: 'main', image: 'busybox', resources: { requests: { cpu: '64' } } }] } } },
    };
    expect((await fetch(`${api.url}/apis/apps/v1/namespaces/default/deployments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(tooBig) })).status).toBe(201);
    await page.waitForSelector('[data-binding="default/too-big-deployment"]', { timeout: 10_000 });
    await fetch(`${api.url}/apis/apps/v1/namespaces/default/deployments/too-big`, { method: 'DELETE' });
    await page.waitForSelector('[data-binding="default/too-big-deployment"]', { state: 'detached', timeout: 10_000 });
    await page.close();
  });

  it('Clusters: every resource the clusters report, GPUs among them: a cluster whose GPUs are all placed is full for GPUs, however much cpu it has left', async () => {
    for (const object of GPU_FLEET) await api.system.objects.apply(object);
    await api.system.runUntilIdle();
    const page = await open('#/clusters');
    await page.waitForSelector('tr[data-cluster="gpu1"]');
    expect(await page.$$eval('table.clusters thead th', (headers) => headers.map((header) => header.textContent))).toEqual(['Cluster', 'Ready', 'Fullest', 'cpu', 'memory', 'pods', 'nvidia.com/gpu', 'Taints']);
    const gpu = await cells(page, 'table.clusters');
    expect(gpu.find((row) => row[0] === 'gpu1')).toEqual(['gpu1', 'Ready', 'nvidia.com/gpu 100%', '4 / 32', '0 / 128Gi', '4 / 110', '4 / 4', '']);
    expect(gpu.find((row) => row[0] === 'member1')).toEqual(['member1', 'Ready', 'cpu 100%', '10 / 10', '0 / 64Gi', '4 / 110', '—', '']);
    expect(await page.getAttribute('tr[data-cluster="gpu1"] .fill[data-resource="nvidia.com/gpu"]', 'data-fraction')).toBe('1');
    expect(await page.getAttribute('tr[data-cluster="gpu1"] .fill[data-resource="nvidia.com/gpu"] meter', 'value')).toBe('1');
    // The fleet's fill of GPUs: its one GPU cluster in the "full" bin, drawn as inline SVG.
    const full = page.locator('.fill-charts[data-resource="nvidia.com/gpu"] .fill-now rect[data-value]');
    expect(await full.evaluateAll((bars) => bars.map((bar) => [bar.getAttribute('data-column'), bar.getAttribute('data-value'), bar.querySelector('title')?.textContent]))).toEqual([['10', '1', 'full — 1 clusters']]);
    expect(await page.textContent('.fill-charts[data-resource="nvidia.com/gpu"] .fill-now figcaption')).toBe('nvidia.com/gpu: clusters by fill now (the fleet 100% placed)');
    expect(await page.locator('.fill-charts[data-resource="nvidia.com/gpu"] .fill-history rect[data-row="full"][data-value="1"]').count()).toBe(1);
    await page.screenshot({ path: join(ARTEFACTS, 'clusters.png'), fullPage: true });

    await page.click('a[href="#/clusters/gpu1"]');
    await page.waitForSelector('table.placed tbody tr');
    expect((await cells(page, 'table.resources')).map((row) => [row[0], row[2], row[3]])).toEqual([
      ['cpu', '4', '32'],
      ['memory', '0', '128Gi'],
      ['pods', '4', '110'],
      ['nvidia.com/gpu', '4', '4'],
    ]);
    expect(await cells(page, 'table.placed')).toEqual([['ml/trainer-deployment', '4', 'cpu 1, nvidia.com/gpu 1', '0', 'preemptible']]);
    // Only the bindings placed there are listed.
    expect(api.requests.some((request) => request.startsWith('GET /apis/work.karmada.io/v1alpha2/resourcebindings?fieldSelector=spec.clusters.name%3Dgpu1&'))).toBe(true);
    await page.screenshot({ path: join(ARTEFACTS, 'cluster.png'), fullPage: true });
    await page.close();

    // What waits for the full GPU cluster is listed with its namespace and why it waits.
    const queue = await open('#/queue');
    await queue.waitForSelector('[data-binding="ml/trainer-extra-deployment"]');
    const waiting = (await cells(queue, 'table.pending')).find((row) => row[1] === 'ml/trainer-extra-deployment')!;
    expect([waiting[4], waiting[7]]).toEqual(['Unschedulable', 'clusters without room for all 1 replicas: gpu1 (0 available)']);
    await queue.close();
  });

  it('What if: shows the victims outrank simulate finds for the same manifest, and writes nothing', async () => {
    const manifest = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: another-urgent, namespace: default}',
      'spec:',
      '  replicas: 1',
      '  selector: {matchLabels: {app: another-urgent}}',
      '  template:',
      '    metadata: {labels: {app: another-urgent}}',
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
        '  selector: {matchLabels: {app: another-urgent}}',
        '  template:',
        '    metadata: {labels: {app: another-urgent}}',
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
    // Each preemption of the last hour is counted in its minute's column, by the victim's band.
    expect(await page.getAttribute('.preemptions-chart', 'data-total')).toBe(String(before));
    expect(await page.locator('.preemptions-chart rect[data-series="default"]').count()).toBeGreaterThan(0);
    const preemptor = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'late-urgent', namespace: 'default' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'late-urgent' } }, template: { metadata: { labels: { app: 'late-urgent' } }, spec: { priorityClassName: 'urgent', containers: [{ name: 'main', image: 'busybox', resources: { requests: { cpu: '1' } } }] } } },
    };
    // A minute later than the preemptions of the example, so that it is the newest by its time.
    api.system.clock.advance(60_000);
    const created = await fetch(`${api.url}/apis/apps/v1/namespaces/default/deployments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(preemptor) });
    expect(created.status).toBe(201);
    await page.waitForSelector('[data-victim] >> nth=' + before, { timeout: 10_000 });
    const rows = await cells(page, 'table.preemptions');
    expect(rows).toHaveLength(before + 1);
    expect(rows[0]![1]).toBe('default/late-urgent-deployment');
    expect(await page.locator('table.preemptions tbody tr').first().locator('a').evaluateAll((links) => links.map((link) => link.getAttribute('href')))).toEqual([
      '#/bindings/default/late-urgent-deployment',
      `#/bindings/default/${rows[0]![3]!.split('/')[1]}`,
    ]);
    expect(Number(rows[0]![2])).toBeGreaterThan(Number(rows[0]![4]));
    await page.screenshot({ path: join(ARTEFACTS, 'preemptions.png'), fullPage: true });
    await page.close();
  });

  it('a binding\'s page: its Scheduled reason and message, policy, requests, priority and where it comes from, and who preempted it, as a link to the preemptor\'s page listing its victims', async () => {
    const page = await open('#/bindings/default/batch-p2-deployment');
    await page.waitForSelector('table.history tbody tr');
    expect(await page.getAttribute('.scheduled', 'data-status')).toBe('False');
    expect(await page.textContent('.scheduled .reason')).toBe('Unschedulable');
    expect(await page.textContent('.scheduled .message')).toMatch(/\S/);
    expect(await page.textContent('.facts .policy')).toBe('PropagationPolicy default/by-pod-priority');
    expect(await page.textContent('.facts .requests')).toBe('cpu 5 per replica × 1 replica');
    expect(await page.textContent('.facts .priority')).toBe('2 (preemption policy Never)');
    await page.waitForSelector('.facts .priority-source:not(:has-text("…"))');
    expect(await page.textContent('.facts .priority-source')).toBe('PriorityClass p2 (value 2), named by the pod template’s priorityClassName (PropagationPolicy default/by-pod-priority: priorityClassSource PodPriorityClass)');
    expect((await cells(page, 'table.history')).map((row) => row[2])).toEqual(expect.arrayContaining(['ScheduleBindingSucceed', 'Preempted', 'ScheduleBindingFailed']));
    // Times are ages, with the time itself on hover.
    const created = page.locator('.facts time').first();
    expect(await created.textContent()).toMatch(/^\d+[smhd] ago$/);
    expect(Date.parse((await created.getAttribute('datetime'))!)).not.toBeNaN();
    expect(await created.getAttribute('title')).toMatch(/\d{2}:\d{2}:\d{2}/);

    await page.click('.preemptors a[href="#/bindings/default/urgent-deployment"]');
    await page.waitForSelector('table.victims tbody tr');
    expect(await page.textContent('h1')).toBe('default/urgent-deployment');
    expect((await cells(page, 'table.victims')).map((row) => [row[1], row[2]])).toEqual([['default/batch-p2-deployment', '2']]);
    expect(await page.getAttribute('table.victims a', 'href')).toBe('#/bindings/default/batch-p2-deployment');
    expect(await page.textContent('.scheduled .reason')).toBe('Success');
    await page.close();
  });

  it('a binding\'s history is its own: not that of an earlier binding of the same name', async () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'again', namespace: 'default' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'again' } }, template: { metadata: { labels: { app: 'again' } }, spec: { priorityClassName: 'p0', containers: [{ name: 'main', image: 'busybox', resources: { requests: { cpu: '100m' } } }] } } },
    };
    const path = `${api.url}/apis/apps/v1/namespaces/default/deployments`;
    const binding = `${api.url}/apis/work.karmada.io/v1alpha2/namespaces/default/resourcebindings/again-deployment`;
    expect((await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(deployment) })).status).toBe(201);
    const first = ((await (await fetch(binding)).json()) as { metadata: { uid: string } }).metadata.uid;
    await fetch(`${path}/again`, { method: 'DELETE' });
    expect((await fetch(binding)).status).toBe(404);
    expect((await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(deployment) })).status).toBe(201);
    const second = ((await (await fetch(binding)).json()) as { metadata: { uid: string } }).metadata.uid;
    expect(second).not.toBe(first);
    const selector = encodeURIComponent('involvedObject.kind=ResourceBinding,involvedObject.name=again-deployment,involvedObject.namespace=default');
    const events = ((await (await fetch(`${api.url}/api/v1/events?fieldSelector=${selector}`)).json()) as { items: Array<{ reason: string; involvedObject: { uid?: string } }> }).items;
    // Both bindings' events are listed under the name; each names its binding's uid.
    expect(new Set(events.map((event) => event.involvedObject.uid))).toEqual(new Set([first, second]));
    const own = events.filter((event) => event.involvedObject.uid === second).length;

    const page = await open('#/bindings/default/again-deployment');
    await page.waitForSelector('table.history tbody tr');
    expect(await cells(page, 'table.history')).toHaveLength(own);
    expect(own).toBeLessThan(events.length);
    await page.close();
    await fetch(`${path}/again`, { method: 'DELETE' });
  });

  it('narrow screens (380 px): every page keeps its width, wide tables scroll inside their own region, and nothing is cut off', async () => {
    const pages = [
      ['#/queue', 'table.pending'],
      ['#/clusters', 'table.clusters'],
      ['#/clusters/member1', 'table.placed'],
      ['#/preemptions', 'table.preemptions'],
      ['#/what-if', 'textarea'],
      ['#/bindings/default/batch-p2-deployment', 'table.history'],
      ['#/bindings/default/urgent-deployment', 'table.victims'],
    ] as const;
    for (const [hash, shown] of pages) {
      const page = await open(hash, { width: 380, height: 800 });
      await page.waitForSelector(shown);
      const layout = await page.evaluate<Layout>(LAYOUT);
      expect({ hash, overflow: layout.overflow, cut: layout.cut }).toEqual({ hash, overflow: 0, cut: [] });
      expect(layout.regions.every((region) => region.overflowX === 'auto')).toBe(true);
      if (hash === '#/queue') {
        expect(layout.regions.some((region) => region.wider)).toBe(true);
        await page.screenshot({ path: join(ARTEFACTS, 'queue-narrow.png'), fullPage: true });
      }
      if (hash.startsWith('#/bindings/default/batch-p2')) await page.screenshot({ path: join(ARTEFACTS, 'binding-narrow.png'), fullPage: true });
      await page.close();
    }
  });

  it('What if: a validation error is said once, with no table left empty under it', async () => {
    const page = await open('#/what-if');
    await page.fill('#manifests', 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: broken, namespace: default}\nspec: {replicas: many}\n');
    await page.click('button[type=submit]');
    await page.waitForSelector('[role=alert]');
    expect(await page.locator('[role=alert]').first().textContent()).toMatch(/replicas/);
    expect(await page.locator('table').count()).toBe(0);
    expect(await page.locator('th').count()).toBe(0);
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
