import { describe, expect, it } from 'vitest';
import { localIdentity } from '../../functions/local/local-identity';

describe('localIdentity: who the local runtime says is calling', () => {
  it('is "admin" unless OUTRANK_IDENTITY says otherwise', () => {
    expect(localIdentity({})({})).toBe('admin');
    expect(localIdentity({ OUTRANK_IDENTITY: 'team-a' })({})).toBe('team-a');
  });

  it('ignores the x-outrank-identity header unless OUTRANK_TRUST_IDENTITY_HEADER is "true"', () => {
    for (const trust of [undefined, 'false', '1', 'TRUE']) {
      const identify = localIdentity({ OUTRANK_IDENTITY: 'team-a', ...(trust === undefined ? {} : { OUTRANK_TRUST_IDENTITY_HEADER: trust }) });
      expect(identify({ 'x-outrank-identity': 'admin' })).toBe('team-a');
    }
  });

  it('takes the header when trusted, falling back to OUTRANK_IDENTITY without one', () => {
    const identify = localIdentity({ OUTRANK_IDENTITY: 'team-a', OUTRANK_TRUST_IDENTITY_HEADER: 'true' });
    expect(identify({ 'x-outrank-identity': 'team-b' })).toBe('team-b');
    expect(identify({ 'x-outrank-identity': '' })).toBe('team-a');
    expect(identify({})).toBe('team-a');
  });
});
