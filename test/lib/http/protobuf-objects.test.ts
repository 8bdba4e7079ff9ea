import { describe, expect, it } from 'vitest';
import { handleApiRequest } from '../../../lib/http/handle-request';
import { Api } from './support';

/** Bodies as kubectl v1.32 sends them (captured from `kubectl create …`), hex-encoded. */
const CREATE_DEPLOYMENT =
  // kubectl create deployment web --image=nginx --replicas=0 -n team-a
  '6b3873000a150a07617070732f7631120a4465706c6f796d656e7412b1010a250a0377656212001a067465616d2d6122002a003200380042005a0a0a036170701203776562127a0800120c0a0a0a0361707012037765621a600a1c0a0012001a0022002a003200380042005a0a0a036170701203776562124012220a056e67696e7812056e67696e782a0042006a007200800100880100900100a201001a00320042004a0052005800600068008201008a01009a0100c2010022020a00280038001a0c0800100018002000280038001a002200';
const CREATE_SERVICE =
  // kubectl create service clusterip s2 --tcp=80:http
  '6b3873000a0d0a02763112075365727669636512690a1d0a02733212001a0022002a003200380042005a090a036170701202733212440a1e0a0738302d6874747012035443501850220a080110001a0468747470280012090a03617070120273321a002209436c757374657249503a00420052005a00600068001a020a001a002200';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';

async function post(api: Api, path: string, bytes: Buffer, contentType = PROTOBUF) {
  const response = await handleApiRequest(
    { method: 'POST', path, query: {}, headers: { 'content-type': contentType }, body: bytes.toString('utf8'), bodyBytes: bytes },
    { objects: api.system.objects, store: api.system.store, events: api.system.events },
  );
  return { statusCode: response.statusCode, body: JSON.parse(response.body) };
}

/** A length-delimited protobuf field. */
function field(number: number, content: Buffer | string): Buffer {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  return Buffer.concat([Buffer.from([(number << 3) | 2, bytes.length]), bytes]);
}

function envelope(apiVersion: string, kind: string, raw: Buffer): Buffer {
  return Buffer.concat([Buffer.from('k8s\0'), field(1, Buffer.concat([field(1, apiVersion), field(2, kind)])), field(2, raw)]);
}

describe('objects sent as protobuf, as kubectl create sends built-in kinds', () => {
  it('creates the Deployment kubectl create deployment sends, keeping a replica count of 0 and leaving out unset fields', async () => {
    const api = new Api();
    const reply = await post(api, '/apis/apps/v1/namespaces/team-a/deployments', Buffer.from(CREATE_DEPLOYMENT, 'hex'));
    expect(reply.statusCode).toBe(201);
    expect(reply.body.metadata).toMatchObject({ name: 'web', namespace: 'team-a', labels: { app: 'web' } });
    expect(reply.body.metadata).not.toHaveProperty('generateName');
    expect(reply.body.spec).toEqual({
      replicas: 0,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx', resources: {} }] } },
      strategy: {},
    });
  });

  it('reads a Service port whose target is a named port', async () => {
    const reply = await post(new Api(), '/api/v1/namespaces/default/services', Buffer.from(CREATE_SERVICE, 'hex'));
    expect(reply.statusCode).toBe(201);
    expect(reply.body.spec).toEqual({ ports: [{ name: '80-http', protocol: 'TCP', port: 80, targetPort: 'http' }], selector: { app: 's2' }, type: 'ClusterIP' });
  });

  it('refuses a field it does not read when it holds a value, naming it, and writes nothing', async () => {
    const api = new Api();
    // A Namespace whose spec (2) carries finalizers (field 1): a value, not a zero.
    const reply = await post(api, '/api/v1/namespaces', envelope('v1', 'Namespace', Buffer.concat([field(1, field(1, 'n1')), field(2, field(1, 'kubernetes'))])));
    expect(reply.statusCode).toBe(400);
    expect(reply.body.message).toBe('the protobuf body cannot be read: spec: field 1 of Empty is not read from protobuf here; send the object as JSON');
    expect(await api.system.store.get({ group: '', kind: 'Namespace', namespace: '', name: 'n1' })).toBeUndefined();
  });

  it('answers 415 for a kind it does not read from protobuf, naming it', async () => {
    const reply = await post(new Api(), '/apis/apps/v1/namespaces/default/statefulsets', envelope('apps/v1', 'StatefulSet', field(1, field(1, 's'))));
    expect(reply.statusCode).toBe(415);
    expect(reply.body.message).toMatch(/^StatefulSet \(apps\/v1\) is not read from protobuf here \(only Deployment, Job, Namespace/);
  });

  it('refuses a body without the Kubernetes envelope with 400', async () => {
    const reply = await post(new Api(), '/apis/apps/v1/namespaces/default/deployments', Buffer.from('{}'));
    expect(reply.statusCode).toBe(400);
    expect(reply.body.message).toMatch(/no k8s\\0 prefix/);
  });

  it('refuses an object whose kind is not the URL\'s', async () => {
    const reply = await post(new Api(), '/api/v1/namespaces/default/services', Buffer.from(CREATE_DEPLOYMENT, 'hex'));
    expect(reply.statusCode).toBe(400);
    expect(reply.body.message).toBe('the API version of the object (apps/v1) does not match the API version on the URL (v1)');
  });
});
