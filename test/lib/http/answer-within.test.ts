import { describe, expect, it } from 'vitest';
import { answerWithin } from '../../../lib/http/answer-within';
import type { ApiResponse } from '../../../lib/http/api-types';
import { parseReply } from './support';

const never = () => new Promise<ApiResponse>(() => {});
const created: ApiResponse = { statusCode: 201, headers: { 'content-type': 'application/json' }, body: '{"kind":"Deployment"}' };
const request = (method: string, path = '/apis/apps/v1/namespaces/default/deployments', query: Record<string, string> = {}) => ({ method, path, query });

describe('a request the API cannot finish within its function\'s time is answered, not cut off', () => {
  it('a read: 503 ServiceUnavailable with Retry-After (nothing happened; try again)', async () => {
    const reply = parseReply(await answerWithin(5, request('GET'), never));
    expect(reply.statusCode).toBe(503);
    expect(reply.headers['retry-after']).toBe('1');
    expect(reply.body).toMatchObject({ kind: 'Status', reason: 'ServiceUnavailable', details: { retryAfterSeconds: 1 } });
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('a write (%s): 504 Timeout, saying it may still be committed', async (method) => {
    const reply = parseReply(await answerWithin(5, request(method), never));
    expect(reply.statusCode).toBe(504);
    expect(reply.headers['retry-after']).toBeUndefined();
    expect(reply.body).toMatchObject({ kind: 'Status', reason: 'Timeout', code: 504 });
    expect(reply.body.message).toContain('may still be completed');
  });

  it.each([
    ['a what-if', request('POST', '/outrank/v1/whatif')],
    ['a SelfSubjectAccessReview', request('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews')],
    ['a dry run', request('POST', '/apis/apps/v1/namespaces/default/deployments', { dryRun: 'All' })],
  ])('a POST without side effects (%s) is answered as a read: 503 with Retry-After, nothing said of being committed', async (_, without) => {
    const reply = parseReply(await answerWithin(5, without, never));
    expect(reply.statusCode).toBe(503);
    expect(reply.headers['retry-after']).toBe('1');
    expect(reply.body).toMatchObject({ kind: 'Status', reason: 'ServiceUnavailable', details: { retryAfterSeconds: 1 } });
    expect(reply.body.message).not.toContain('may still be completed');
  });

  it('a request finished in time gets its own answer, and its signal is never aborted', async () => {
    let signal: AbortSignal | undefined;
    const answer = await answerWithin(1_000, request('POST'), async (given) => {
      signal = given;
      return created;
    });
    expect(answer).toBe(created);
    expect(signal?.aborted).toBe(false);
  });

  it('the work is told, by its signal, when the request has been answered without it', async () => {
    let signal: AbortSignal | undefined;
    await answerWithin(5, request('POST', '/outrank/v1/whatif'), (given) => {
      signal = given;
      return never();
    });
    expect(signal?.aborted).toBe(true);
  });
});
