/**
 * Watch on the local runtime (`npm start`): streamed by its gateway as the stack's watch function
 * streams, read from the DynamoDB store's change feed, whose versions are write times.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, LocalRuntime } from '../reliability/support/local-runtime-process';
import { provisionTestAws } from '../support/aws';
import { DynamoDbEventLog } from '../../functions/adapters/dynamodb-event-log';
import { systemClock } from '../../lib/ports/clock';
import { forEachJsonLine } from '../support/json-lines';
import { kubectlInstalled } from '../bin/support/kubectl-installed';
import { kubectlWatches } from '../bin/support/kubectl-watching';

const { watching: kubectlWatching, stop: stopKubectls } = kubectlWatches();

const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';

interface Event {
  readonly type: string;
  readonly object: { metadata: { name: string; resourceVersion?: string }; spec?: { replicas?: number }; code?: number; reason?: string };
}

/** A watch's events as they arrive, read line by line from the streamed response. */
class Watching {
  readonly events: Event[] = [];
  private failure: unknown;
  private readonly controller = new AbortController();
  private readonly reading: Promise<void>;

  constructor(url: string) {
    this.reading = (async () => {
      const response = await fetch(url, { signal: this.controller.signal });
      expect(response.status).toBe(200);
      await forEachJsonLine<Event>(response.body! as AsyncIterable<Uint8Array>, (event) => this.events.push(event));
    })().catch((error: unknown) => {
      if (!this.controller.signal.aborted) this.failure = error;
    });
  }

  async until(done: (events: readonly Event[]) => boolean): Promise<Event[]> {
    for (let waited = 0; !done(this.events); waited += 50) {
      if (this.failure) throw this.failure;
      if (waited > 20_000) throw new Error(`events so far: ${JSON.stringify(this.events.map((event) => [event.type, event.object.metadata?.name]))}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return this.events;
  }

  async stop(): Promise<void> {
    this.controller.abort();
    await this.reading;
  }
}

const changes = (events: readonly Event[]) => events.filter((event) => event.type !== 'BOOKMARK').map((event) => [event.type, event.object.metadata.name, event.object.spec?.replicas]);

function deployment(name: string, replicas: number): object {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', resources: { requests: { cpu: '100m' } } }] } } },
  };
}

let running: LocalRuntime;
/** The events table npm start reads, written as its functions write it. */
let events: DynamoDbEventLog;

describe('watch on npm start', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    const aws = await provisionTestAws();
    events = new DynamoDbEventLog(aws.clients.documents, aws.resources.eventsTable, systemClock);
    running = await LocalRuntime.start(aws.resources.objectsTable.replace(/-objects$/, ''), await freePort());
  }, 120_000);
  afterAll(() => {
    stopKubectls();
    running?.kill();
  });

  it('streams ADDED, MODIFIED and DELETED as they are written, from now and from a list\'s resourceVersion', async () => {
    expect((await running.post(DEPLOYMENTS, deployment('web', 1))).status).toBe(201);
    const list = (await (await fetch(`${running.url}${DEPLOYMENTS}`)).json()) as { metadata: { resourceVersion: string } };
    const fromNow = new Watching(`${running.url}${DEPLOYMENTS}?watch=1`);
    const fromList = new Watching(`${running.url}${DEPLOYMENTS}?watch=true&resourceVersion=${list.metadata.resourceVersion}`);
    await fromNow.until((events) => events.length >= 1);
    const patched = await fetch(`${running.url}${DEPLOYMENTS}/web`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ spec: { replicas: 3 } }) });
    expect(patched.status).toBe(200);
    // The feed gives each object as it is when read: changes within one read would arrive as one event,
    // so both watches see the patch before the delete.
    await Promise.all([fromNow, fromList].map((watching) => watching.until((events) => events.some((event) => event.type === 'MODIFIED'))));
    expect((await fetch(`${running.url}${DEPLOYMENTS}/web`, { method: 'DELETE' })).status).toBe(200);
    const now = await fromNow.until((events) => events.some((event) => event.type === 'DELETED'));
    expect(changes(now)).toEqual([['ADDED', 'web', 1], ['MODIFIED', 'web', 3], ['DELETED', 'web', 3]]);
    // From a version: nothing after it is missed, and the write the version names (web as listed) is
    // not sent again, though DynamoDB's feed reads its last seconds again.
    const fromVersion = changes(await fromList.until((events) => events.some((event) => event.type === 'DELETED')));
    expect(fromVersion).toEqual([['MODIFIED', 'web', 3], ['DELETED', 'web', 3]]);
    await Promise.all([fromNow.stop(), fromList.stop()]);
  });

  it('from a list\'s version: nothing for the objects the list returned, ADDED for a creation, resumed from an event\'s version exactly once', async () => {
    // Written a moment before the list: inside the feed's overlap, which a watch reads again.
    for (const name of ['listed-a', 'listed-b']) expect((await running.post(DEPLOYMENTS, deployment(name, 1))).status).toBe(201);
    const list = (await (await fetch(`${running.url}${DEPLOYMENTS}`)).json()) as { metadata: { resourceVersion: string } };
    const fromList = new Watching(`${running.url}${DEPLOYMENTS}?watch=true&resourceVersion=${list.metadata.resourceVersion}`);
    expect((await running.post(DEPLOYMENTS, deployment('created', 1))).status).toBe(201);
    const [added] = await fromList.until((events) => events.some((event) => event.object.metadata.name === 'created'));
    await fromList.stop();
    expect(changes(fromList.events)).toEqual([['ADDED', 'created', 1]]);
    // Resumed from the ADDED's version: the patch after it, and nothing before.
    const patched = await fetch(`${running.url}${DEPLOYMENTS}/created`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ spec: { replicas: 2 } }) });
    expect(patched.status).toBe(200);
    const resumed = new Watching(`${running.url}${DEPLOYMENTS}?watch=true&resourceVersion=${added!.object.metadata.resourceVersion}`);
    await resumed.until((events) => events.some((event) => event.type === 'MODIFIED'));
    await resumed.stop();
    expect(changes(resumed.events)).toEqual([['MODIFIED', 'created', 2]]);
  });

  it.runIf(kubectlInstalled('kubectl get -w on npm start'))('kubectl get -w --output-watch-events, listed in pages: each listed object once, ADDED for a creation', async () => {
    const NAMESPACED = '/apis/apps/v1/namespaces/kubectl/deployments';
    // Written a moment before kubectl lists: inside the feed's overlap, which a watch reads again.
    for (const name of ['one', 'two']) expect((await running.post(NAMESPACED, { ...deployment(name, 1), metadata: { name, namespace: 'kubectl' } })).status).toBe(201);
    // One object a page: a list in pages answers with the store's version from before its first.
    const kubectl = kubectlWatching(running.url, 'get', 'deployments', '-n', 'kubectl', '-w', '--output-watch-events', '--chunk-size=1');
    await kubectl.until((rows) => rows.length >= 3);
    expect((await running.post(NAMESPACED, { ...deployment('three', 1), metadata: { name: 'three', namespace: 'kubectl' } })).status).toBe(201);
    const rows = await kubectl.until((printed) => printed.some((row) => row[1] === 'three'));
    expect(rows.map((row) => row.slice(0, 2))).toEqual([['EVENT', 'NAME'], ['ADDED', 'one'], ['ADDED', 'two'], ['ADDED', 'three']]);
  });

  it.runIf(kubectlInstalled('kubectl get events -w on npm start'))('kubectl get events -w: the events there are, then each one recorded, once', async () => {
    const record = (name: string) => events.record({ type: 'Normal', reason: 'Seen', object: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'watched', name }, message: `saw ${name}` });
    await record('before');
    const kubectl = kubectlWatching(running.url, 'get', 'events', '-n', 'watched', '-w', '--output-watch-events');
    await kubectl.until((rows) => rows.some((row) => row.includes('saw before')));
    await record('after');
    const rows = await kubectl.until((printed) => printed.some((row) => row.includes('saw after')));
    expect(rows.slice(1).map((row) => [row[0], row.at(-1)])).toEqual([['ADDED', 'saw before'], ['ADDED', 'saw after']]);
  });

  it('answers a version older than the feed keeps with an ERROR event: 410 Expired', async () => {
    const watching = new Watching(`${running.url}${DEPLOYMENTS}?watch=1&resourceVersion=000000001000000000000`);
    const [event] = await watching.until((events) => events.length >= 1);
    expect(event).toMatchObject({ type: 'ERROR', object: { code: 410, reason: 'Expired' } });
    await watching.stop();
  });
});
