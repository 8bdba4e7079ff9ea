import { describe, expect, it } from 'vitest';
import { GENERATE_NAME_ATTEMPTS, generatedName } from '../../../lib/api/generate-name';
import { SequentialUids } from '../../../lib/memory/sequential-uids';
import { Api, priorityClass } from './support';

const COLLECTION = '/apis/scheduling.k8s.io/v1/priorityclasses';

/**
 * The uids a fresh system gives, in order: each try at a generated name draws one for the name, then
 * one for the object it would write.
 */
function firstUids(count: number): string[] {
  const uids = new SequentialUids();
  return Array.from({ length: count }, () => uids.next());
}

const generated = { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { generateName: 'batch-' }, value: 10 };

describe('metadata.generateName, as kube-apiserver names objects', () => {
  it('names an object without a name its prefix and five random characters, keeping generateName', async () => {
    const api = new Api();
    const reply = await api.send('POST', COLLECTION, { body: generated });
    expect(reply.statusCode).toBe(201);
    expect(reply.body.metadata.name).toMatch(/^batch-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(reply.body.metadata.generateName).toBe('batch-');
    expect((await api.get(`${COLLECTION}/${reply.body.metadata.name}`)).statusCode).toBe(200);
  });

  it('gives each object its own name', async () => {
    const api = new Api();
    const names = new Set<string>();
    for (let i = 0; i < 20; i += 1) names.add((await api.send('POST', COLLECTION, { body: generated })).body.metadata.name);
    expect(names.size).toBe(20);
  });

  it('cuts a long prefix so that the name has 63 characters', () => {
    expect(generatedName('a'.repeat(80), 'ff'.repeat(5))).toHaveLength(63);
  });

  it('a name given wins over generateName', async () => {
    const reply = await new Api().send('POST', COLLECTION, { body: { ...generated, metadata: { name: 'named', generateName: 'batch-' } } });
    expect(reply.statusCode).toBe(201);
    expect(reply.body.metadata.name).toBe('named');
  });

  it('tries another name when the generated one is taken', async () => {
    const api = new Api();
    const uids = firstUids(4);
    // The seed takes the first uid; the create's first try the second (and the third for its object).
    await api.seed(priorityClass(generatedName('batch-', uids[1]!), 5));
    const reply = await api.send('POST', COLLECTION, { body: generated });
    expect(reply.statusCode).toBe(201);
    expect(reply.body.metadata.name).toBe(generatedName('batch-', uids[3]!));
  });

  it(`answers 409 AlreadyExists, writing nothing, when ${GENERATE_NAME_ATTEMPTS} generated names are taken`, async () => {
    const api = new Api();
    const uids = firstUids(3 * GENERATE_NAME_ATTEMPTS);
    // The seeds take the first uids; then each try two.
    const taken = Array.from({ length: GENERATE_NAME_ATTEMPTS }, (_, attempt) => generatedName('batch-', uids[GENERATE_NAME_ATTEMPTS + 2 * attempt]!));
    for (const name of taken) await api.seed(priorityClass(name, 5));
    const before = await api.snapshot();
    const reply = await api.send('POST', COLLECTION, { body: generated });
    expect(reply.statusCode).toBe(409);
    expect(reply.body).toMatchObject({ reason: 'AlreadyExists', message: `priorityclasses.scheduling.k8s.io "${taken.at(-1)}" already exists` });
    expect(await api.snapshot()).toEqual(before);
  });

  it('refuses an object with neither name nor generateName with 422, writing nothing', async () => {
    const api = new Api();
    const reply = await api.send('POST', '/apis/apps/v1/namespaces/default/deployments', {
      body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { labels: { app: 'web' } }, spec: {} },
    });
    expect(reply.statusCode).toBe(422);
    expect(reply.body).toMatchObject({ reason: 'Invalid', message: 'Deployment "<unnamed>" is invalid: metadata.name: Required value: name or generateName is required' });
    expect(reply.body.details.causes).toEqual([{ field: 'metadata.name', message: 'Required value: name or generateName is required', reason: expect.any(String) }]);
    expect(await api.snapshot()).toEqual(await new Api().snapshot());
  });
});
