import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../bin/client/api-client';
import { signingOf, sigV4Signer } from '../../bin/client/sigv4-signer';

describe('signingOf: how a deployed endpoint is signed, by its host', () => {
  it.each([
    ['https://abc123.execute-api.eu-west-1.amazonaws.com/', { service: 'execute-api', region: 'eu-west-1' }],
    ['https://abc123.execute-api.us-east-1.amazonaws.com/prod', { service: 'execute-api', region: 'us-east-1' }],
    ['https://abcdefghij1234.lambda-url.eu-west-1.on.aws/', { service: 'lambda', region: 'eu-west-1' }],
    ['http://localhost:8080', undefined],
    ['https://outrank.example.com', undefined],
  ])('%s → %j', (url, signing) => {
    expect(signingOf(new URL(url))).toEqual(signing);
  });
});

describe('requests to a deployed API are signed with SigV4 for execute-api', () => {
  const saved = { ...process.env };
  beforeEach(() => {
    process.env.AWS_ACCESS_KEY_ID = 'AKIDEXAMPLE';
    process.env.AWS_SECRET_ACCESS_KEY = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY';
    delete process.env.AWS_SESSION_TOKEN;
    delete process.env.AWS_PROFILE;
  });
  afterEach(() => {
    process.env = { ...saved };
  });

  it('adds an Authorization header naming the key, region and service, and the signed date', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((request, response) => {
      seen.push(request.headers);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"kind":"Status"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const client = new ApiClient(`http://127.0.0.1:${port}`, sigV4Signer('eu-west-1'));
      await client.request('POST', '/apis/cluster.karmada.io/v1alpha1/clusters', { body: { kind: 'Cluster' } });
    } finally {
      server.close();
    }
    const headers = seen[0]!;
    expect(headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/execute-api\/aws4_request, SignedHeaders=[a-z0-9;-]*host[a-z0-9;-]*, Signature=[0-9a-f]{64}$/,
    );
    expect(headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
  });
});
