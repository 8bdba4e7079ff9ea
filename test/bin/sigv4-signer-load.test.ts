/** The AWS SDK part of the signer is imported by the first request signed; an import that failed is tried again. */
import { describe, expect, it, vi } from 'vitest';

let imports = 0;
// The first import fails, as when a build replaced the chunk under a running process.
vi.mock('../../bin/client/aws-sigv4', () => {
  imports++;
  if (imports === 1) throw new Error('Cannot find module chunks/aws-sigv4');
  return { awsSigV4Signer: (region: string, service: string) => ({ sign: async () => ({ authorization: `signed for ${service} in ${region}` }) }) };
});

describe('sigV4Signer loads the AWS SDK when it first signs', () => {
  const request = { method: 'GET', url: new URL('https://abc123.execute-api.eu-west-1.amazonaws.com/api/v1'), headers: {} };

  it('imports nothing until a request is signed, and tries a failed import again at the next request', async () => {
    const { sigV4Signer } = await import('../../bin/client/sigv4-signer');
    const signer = sigV4Signer('eu-west-1');
    expect(imports).toBe(0);
    await expect(signer.sign(request)).rejects.toThrow();
    await expect(signer.sign(request)).resolves.toEqual({ authorization: 'signed for execute-api in eu-west-1' });
    await expect(signer.sign(request)).resolves.toEqual({ authorization: 'signed for execute-api in eu-west-1' });
    expect(imports).toBe(2);
  });
});
