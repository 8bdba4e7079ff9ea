/** limit and continue, as Kubernetes clients page through a list (kubectl get --chunk-size). */
import { describe, expect, it } from 'vitest';
import { Api, workload } from './support';

const all = '/apis/apps/v1/deployments';

async function fleet(): Promise<Api> {
  const api = new Api();
  // Namespaces "a" and "a-b" order differently by namespace than as "a/…" and "a-b/…" strings would.
  for (const [namespace, name] of [['a', 'x'], ['a-b', 'x'], ['a', 'y'], ['b', 'w'], ['a-b', 'z']] as const) {
    await api.seed(workload('apps/v1', 'Deployment', name, namespace));
  }
  return api;
}

describe('list paging', () => {
  it('pages through every object once, in namespace then name order, with the remaining count', async () => {
    const api = await fleet();
    const seen: string[] = [];
    const remaining: number[] = [];
    let token: string | undefined = '';
    for (let page = 0; token !== undefined && page < 10; page += 1) {
      const reply = await api.get(all, { limit: '2', continue: token });
      expect(reply.statusCode).toBe(200);
      expect(reply.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...reply.body.items.map((item: any) => `${item.metadata.namespace}/${item.metadata.name}`));
      token = reply.body.metadata.continue;
      if (token !== undefined) remaining.push(reply.body.metadata.remainingItemCount);
    }
    expect(seen).toEqual(['a/x', 'a/y', 'a-b/x', 'a-b/z', 'b/w']);
    expect(remaining).toEqual([3, 1]);
  });

  it('gives no continue token when the page holds the rest', async () => {
    const api = await fleet();
    const reply = await api.get(all, { limit: '5' });
    expect(reply.body.items).toHaveLength(5);
    expect(reply.body.metadata.continue).toBeUndefined();
  });

  it('pages after the selector is applied', async () => {
    const api = await fleet();
    const reply = await api.get(all, { limit: '1', fieldSelector: 'metadata.namespace=a-b' });
    expect(reply.body.items.map((item: any) => item.metadata.name)).toEqual(['x']);
    expect(reply.body.metadata.remainingItemCount).toBe(1);
  });

  it.each([
    ['a limit that is not a number', { limit: 'ten' }, 'limit'],
    ['a negative limit', { limit: '-1' }, 'limit'],
    ['a continue token it did not give', { continue: 'bm90LWEtdG9rZW4' }, 'continue'],
  ])('refuses %s with 400 naming the parameter', async (_, query, parameter) => {
    const api = await fleet();
    const reply = await api.get(all, query);
    expect(reply.statusCode).toBe(400);
    expect(reply.body.message).toMatch(new RegExp(`^${parameter}:`));
  });
});
