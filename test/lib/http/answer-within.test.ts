import { describe, expect, it } from 'vitest';
import { answerWithin } from '../../../lib/http/answer-within';
import type { ApiResponse } from '../../../lib/http/api-types';
import { parseReply } from './support';

const never = new Promise<ApiResponse>(() => {});
const created: ApiResponse = { statusCode: 201, headers: { 'content-type': 'application/json' }, body: '{"kind":"Deployment"}' };

describe('a request the API cannot finish within its function\'s time is answered, not cut off', () => {
  it('a read: 503 ServiceUnavailable with Retry-After (nothing happened; try again)', async () => {
    const reply = parseReply(await answerWithin(5, 'GET', never));
    expect(reply.statusCode).toBe(503);
    expect(reply.headers['retry-after']).toBe('1');
    expect(reply.body).toMatchObject({ kind: 'Status', reason: 'ServiceUnavailable', details: { retryAfterSeconds: 1 } });
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('a write (%s): 504 Timeout, saying it may still be committed', async (method) => {
    const reply = parseReply(await answerWithin(5, method, never));
    expect(reply.statusCode).toBe(504);
    expect(reply.headers['retry-after']).toBeUndefined();
    expect(reply.body).toMatchObject({ kind: 'Status', reason: 'Timeout', code: 504 });
    expect(reply.body.message).toContain('may still be completed');
  });

  it('a request finished in time gets its own answer', async () => {
    expect(await answerWithin(1_000, 'POST', Promise.resolve(created))).toBe(created);
  });
});
