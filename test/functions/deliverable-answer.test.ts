import { describe, expect, it } from 'vitest';
import { deliverableAnswer, MAX_ANSWER_BYTES } from '../../functions/deliverable-answer';
import { jsonResponse } from '../../lib/http/response';

describe('an answer larger than a Lambda function can send', () => {
  it('is a 413 Status naming limit and saying how to list instead (its size counted in UTF-8 bytes); one that fits goes out as it is', () => {
    const fits = jsonResponse(200, { kind: 'DeploymentList', items: ['x'.repeat(MAX_ANSWER_BYTES - 100)] });
    expect(deliverableAnswer(fits)).toBe(fits);

    const tooLarge = jsonResponse(200, { kind: 'ResourceBindingList', items: ['é'.repeat(3.5 * 1024 * 1024)] });
    const answer = deliverableAnswer(tooLarge);
    expect(answer.statusCode).toBe(413);
    const status = JSON.parse(answer.body);
    expect(status).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'RequestEntityTooLarge', code: 413 });
    expect(status.message).toMatch(/^limit: the answer is 7\.0 MB, more than the 5\.9 MB a response of this API can carry; list in pages with limit and continue/);
  });
});
