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

  it('signs its requests with SigV4 when OUTRANK_AWS_REGION asks, the AWS SDK loaded then from a chunk of its own', async () => {
    const authorizations: Array<string | undefined> = [];
    const server = createServer((request, response) => {
      authorizations.push(request.headers.authorization);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const result = await outrankProcess(['get', 'pc', '--server', `http://127.0.0.1:${(server.address() as AddressInfo).port}`], {
        OUTRANK_AWS_REGION: 'eu-west-1',
        AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
        AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
        AWS_SESSION_TOKEN: undefined,
        AWS_PROFILE: undefined,
      });
      expect(result.code, result.stderr).toBe(0);
    } finally {
      server.close();
    }
    expect(authorizations).toHaveLength(1);
    expect(authorizations[0]).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/execute-api\/aws4_request, /);
  });

  it('talks to the server OUTRANK_SERVER names, and exits 1 with the Status of a failed request', async () => {
    const result = await outrankProcess(['get', 'pc', 'nope'], { OUTRANK_SERVER: api.url });
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'Error from server (NotFound): priorityclasses.scheduling.k8s.io "nope" not found\n' });
  });
});
