/**
 * `kubectl explain` of the workload kinds: every field described and typed as Kubernetes' OpenAPI
 * types it, also the fields outrank keeps as written without reading them.
 */
import { describe, expect, it } from 'vitest';
import { Api } from './support';

type Schema = { type?: string; description?: string; properties?: Record<string, Schema>; items?: Schema; additionalProperties?: Schema | boolean; anyOf?: Schema[] };

/** Every property below `schema`, by path, with the schema that describes it. */
function properties(schema: Schema, path = ''): Array<[string, Schema]> {
  const own = Object.entries(schema.properties ?? {}).flatMap(([name, child]): Array<[string, Schema]> => {
    const childPath = path ? `${path}.${name}` : name;
    const inner = child.items?.properties ? child.items : child;
    return [[childPath, child], ...properties(inner, childPath)];
  });
  return own;
}

const KINDS = [
  ['apis/apps/v1', 'io.k8s.api.apps.v1.Deployment'],
  ['apis/apps/v1', 'io.k8s.api.apps.v1.StatefulSet'],
  ['apis/apps/v1', 'io.k8s.api.apps.v1.ReplicaSet'],
  ['apis/batch/v1', 'io.k8s.api.batch.v1.Job'],
] as const;

describe('OpenAPI v3 schemas of the workload kinds', () => {
  it.each(KINDS)('%s %s: every field has a description and a type', async (document, name) => {
    const reply = await new Api().get(`/openapi/v3/${document}`);
    const fields = properties(reply.body.components.schemas[name]);
    expect(fields.length).toBeGreaterThan(80);
    for (const [path, schema] of fields) {
      expect(schema.description, path).toMatch(/\S/);
      expect(schema.description, path).not.toBe('Kept as written: outrank does not read it.');
      if (path.endsWith('.status') || path === 'status') continue; // kept whole, of any shape
      expect(schema.type ?? schema.anyOf, path).toBeDefined();
    }
  });

  it('types the fields as Kubernetes does: integers, booleans, strings, lists and maps', async () => {
    const reply = await new Api().get('/openapi/v3/apis/apps/v1');
    const fields = new Map(properties(reply.body.components.schemas['io.k8s.api.apps.v1.Deployment']));
    const typeOf = (path: string) => {
      const schema = fields.get(path)!;
      return schema.type === 'array' ? `[]${schema.items?.type}` : schema.type === 'object' && typeof schema.additionalProperties === 'object' && schema.additionalProperties.type === 'string' ? 'map[string]string' : schema.type;
    };
    expect(typeOf('spec.minReadySeconds')).toBe('integer');
    expect(typeOf('spec.paused')).toBe('boolean');
    expect(typeOf('spec.selector')).toBe('object');
    expect(typeOf('spec.template.spec.terminationGracePeriodSeconds')).toBe('integer');
    expect(typeOf('spec.template.spec.nodeSelector')).toBe('map[string]string');
    expect(typeOf('spec.template.spec.tolerations')).toBe('[]object');
    expect(typeOf('spec.template.spec.containers.command')).toBe('[]string');
    expect(typeOf('spec.template.spec.containers.image')).toBe('string');
    expect(typeOf('metadata.finalizers')).toBe('[]string');
  });

  it('refuses a value of another type, naming the field, as kube-apiserver does', async () => {
    const api = new Api();
    const reply = await api.send('POST', '/apis/apps/v1/namespaces/default/deployments', {
      body: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', creationTimestamp: null },
        spec: { minReadySeconds: 'soon', selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'nginx' }] } } },
      },
    });
    expect(reply.statusCode).toBe(422);
    expect(reply.body.details.causes.map((cause: { field: string }) => cause.field)).toEqual(['spec.minReadySeconds']);
  });
});
