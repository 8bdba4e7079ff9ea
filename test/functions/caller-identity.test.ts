import { describe, expect, it } from 'vitest';
import { callerIdentity } from '../../functions/caller-identity';
import { apiEvent } from './api-event';

describe('callerIdentity: the caller API Gateway\'s IAM authorizer verified', () => {
  it('is the signer\'s ARN', () => {
    expect(callerIdentity(apiEvent('GET', '/apis', { userArn: 'arn:aws:sts::1:assumed-role/team-a/ci' }))).toBe('arn:aws:sts::1:assumed-role/team-a/ci');
  });

  it('is not taken from a header the client sends', () => {
    const event = apiEvent('GET', '/apis', { userArn: 'arn:aws:iam::1:role/team-a' });
    expect(callerIdentity({ ...event, headers: { 'x-outrank-identity': 'arn:aws:iam::1:role/platform' } })).toBe('arn:aws:iam::1:role/team-a');
    expect(callerIdentity({ ...apiEvent('GET', '/apis'), headers: { 'x-outrank-identity': 'arn:aws:iam::1:role/platform' } })).toBeUndefined();
  });

  it('is undefined for an empty userArn', () => {
    expect(callerIdentity(apiEvent('GET', '/apis', { userArn: '' }))).toBeUndefined();
  });

  it('is undefined without an authorizer (a route without IAM authorization)', () => {
    expect(callerIdentity(apiEvent('GET', '/apis'))).toBeUndefined();
  });
});
