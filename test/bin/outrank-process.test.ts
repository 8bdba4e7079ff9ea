import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api-server';
import { outrankProcess } from './support/run-cli';

/** A loopback address nothing listens on: a port the system handed out, then freed. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

describe('node bin/outrank.mjs', () => {
  it('says how to start the API when it cannot reach it, and exits 1', async () => {
    const url = await closedPortUrl();
    expect(await outrankProcess(['get', 'bindings', '--server', url])).toEqual({
      code: 1,
      stdout: '',
      stderr: `cannot reach the outrank API at ${url}: start it with "npm start" or pass --server\n`,
    });
  });

  it('talks to the server OUTRANK_SERVER names, and exits 1 with the Status of a failed request', async () => {
    const result = await outrankProcess(['get', 'pc', 'nope'], { OUTRANK_SERVER: api.url });
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'Error from server (NotFound): priorityclasses.scheduling.k8s.io "nope" not found\n' });
  });
});
