/**
 * The watch function as its function URL runs it (RESPONSE_STREAM): a watch streamed event by event,
 * any other request answered in one piece, so that a client pointed at the URL has the whole API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetControllerContext } from '../../functions/context';
import { environmentFor } from '../../functions/environment';
import { streamApiRequest, watchTiming, type ResponseStream } from '../../functions/watch';
import { provisionTestAws } from '../support/aws';
import { apiEvent } from './api-event';

interface Streamed {
  status?: number;
  headers?: Record<string, string>;
  chunks: string[];
  ended: boolean;
}

function recorder(): { stream: ResponseStream; streamed: Streamed } {
  const streamed: Streamed = { chunks: [], ended: false };
  return {
    streamed,
    stream: {
      start: (status, headers) => Object.assign(streamed, { status, headers }),
      write: (chunk) => void streamed.chunks.push(chunk),
      end: () => void (streamed.ended = true),
    },
  };
}

const saved = { ...process.env };

describe('the watch function', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    const aws = await provisionTestAws();
    Object.assign(process.env, environmentFor(aws.resources, undefined));
    resetControllerContext();
  });
  afterAll(() => {
    process.env = saved;
    resetControllerContext();
  });

  it('answers a request other than a watch in one piece, as the api function does', async () => {
    const { stream, streamed } = recorder();
    await streamApiRequest(apiEvent('GET', '/version'), stream, new AbortController().signal, watchTiming(60_000, 50));
    expect(streamed).toMatchObject({ status: 200, ended: true });
    expect(JSON.parse(streamed.chunks.join(''))).toMatchObject({ major: '1', minor: '32' });
  });

  it('streams a watch as one JSON event per line until its timeoutSeconds', async () => {
    const created = recorder();
    const body = { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 10 };
    await streamApiRequest(apiEvent('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', { body }), created.stream, new AbortController().signal, watchTiming(60_000, 50));
    expect(created.streamed.status).toBe(201);
    const { stream, streamed } = recorder();
    const watch = { ...apiEvent('GET', '/apis/scheduling.k8s.io/v1/priorityclasses'), queryStringParameters: { watch: '1', timeoutSeconds: '1' } };
    await streamApiRequest(watch, stream, new AbortController().signal, watchTiming(60_000, 50));
    expect(streamed).toMatchObject({ status: 200, headers: { 'content-type': 'application/json' }, ended: true });
    const events = streamed.chunks.join('').trim().split('\n').map((line) => JSON.parse(line) as { type: string; object: { metadata: { name: string } } });
    expect(events.map((event) => [event.type, event.object.metadata.name])).toEqual([['ADDED', 'high']]);
  });

  it('ends a watch before the function would time out', () => {
    expect(watchTiming(15 * 60_000, 1_000).maxTimeoutSeconds).toBe(895);
  });
});
