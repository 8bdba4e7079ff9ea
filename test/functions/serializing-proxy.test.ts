/**
 * The local runtime's proxy in front of the AWS endpoint: DynamoDB requests one at a time, the
 * watches' reads (marked as background by their client) only when no other DynamoDB request waits.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_HEADER, backgroundDynamoDbClient } from '../../functions/local/background-requests';
import { startSerializingProxy, type SerializingProxy } from '../../functions/local/serializing-proxy';

/** An endpoint that records each request as it arrives and answers it only when told. */
class HeldEndpoint {
  readonly arrived: string[] = [];
  readonly headers: IncomingMessage['headers'][] = [];
  private readonly answers: Array<() => void> = [];
  readonly server: Server = createServer((request, response) => {
    request.resume();
    this.arrived.push(String(request.headers['x-test-name']));
    this.headers.push(request.headers);
    this.answers.push(() => response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end('{"TableNames":[]}'));
  });

  async url(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Answers the oldest request not answered yet, once it has arrived. */
  async answerNext(): Promise<void> {
    while (this.answers.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    this.answers.shift()!();
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

let endpoint: HeldEndpoint;
let proxy: SerializingProxy;

afterEach(async () => {
  await proxy?.close();
  await endpoint?.close();
});

function dynamodbRequest(name: string, background: boolean): Promise<Response> {
  return fetch(`${proxy.url}/`, {
    method: 'POST',
    headers: { 'x-amz-target': 'DynamoDB_20120810.Query', 'x-test-name': name, ...(background ? { [BACKGROUND_HEADER]: '1' } : {}) },
    body: '{}',
  });
}

/** Sends each request 100 ms after the one before, and returns their answers to come. */
async function sentApart(requests: ReadonlyArray<() => Promise<Response>>): Promise<Array<Promise<Response>>> {
  const sent: Array<Promise<Response>> = [];
  for (const request of requests) {
    sent.push(request());
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return sent;
}

describe('the serializing proxy', () => {
  it('forwards a waiting request of the scheduling path before every watch read queued earlier', async () => {
    endpoint = new HeldEndpoint();
    proxy = await startSerializingProxy(await endpoint.url());
    const first = dynamodbRequest('cycle-1', false);
    while (endpoint.arrived.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    // Each sent a while after the one before: requests sent at once race to the proxy on connections of
    // their own, and the order asserted is the proxy's order of arrival within each path.
    const watches = await sentApart([1, 2, 3].map((n) => () => dynamodbRequest(`watch-${n}`, true)));
    // Queued at the proxy (their bodies read) before the scheduling path's next requests come.
    await new Promise((resolve) => setTimeout(resolve, 250));
    const cycles = await sentApart([2, 3].map((n) => () => dynamodbRequest(`cycle-${n}`, false)));
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(endpoint.arrived).toEqual(['cycle-1']);
    for (let answered = 0; answered < 6; answered++) await endpoint.answerNext();
    await Promise.all([first, ...watches, ...cycles]);
    expect(endpoint.arrived).toEqual(['cycle-1', 'cycle-2', 'cycle-3', 'watch-1', 'watch-2', 'watch-3']);
  });

  it('the watches\' DynamoDB client marks its requests as background', async () => {
    endpoint = new HeldEndpoint();
    const url = await endpoint.url();
    const saved = { ...process.env };
    Object.assign(process.env, { AWS_ENDPOINT_URL: url, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test' });
    try {
      const client = backgroundDynamoDbClient();
      const sent = client.send(new ListTablesCommand({}));
      await endpoint.answerNext();
      await sent;
      expect(endpoint.headers[0]![BACKGROUND_HEADER]).toBe('1');
      client.destroy();
    } finally {
      process.env = saved;
    }
  });
});
