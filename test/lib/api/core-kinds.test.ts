/**
 * The core/v1 kinds of an application bundle are validated as kube-apiserver validates them
 * (pkg/apis/core/validation): each refusal names the field and the rule, and what kube-apiserver accepts
 * is accepted as written — but a Secret's stringData, merged into data as kube-apiserver stores it.
 */
import { describe, expect, it } from 'vitest';
import { decodeObject, decodeObjectWith, isTemplate } from '../../../lib/api/decode';
import { isWorkloadTemplate, type ResourceTemplate } from '../../../lib/api/resource-template';
import { BUNDLE_OBJECTS } from '../../support/bundle-objects';
import { refusalCauses } from '../../support/refusal-causes';

const causesOf = (raw: unknown) => refusalCauses(() => decodeObject(raw));

const service = (spec: Record<string, unknown>, name = 'web') => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec });
const secret = (fields: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, ...fields });
const configMap = (fields: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, ...fields });
const base64 = (text: string) => Buffer.from(text).toString('base64');

describe('the kinds of a bundle decode as plain templates', () => {
  it.each(Object.keys(BUNDLE_OBJECTS).filter((kind) => !kind.includes('OverridePolicy')))('%s: accepted as written, a template without replicas', (kind) => {
    const object = decodeObject(BUNDLE_OBJECTS[kind]!());
    expect(isTemplate(object)).toBe(true);
    expect(isWorkloadTemplate(object as ResourceTemplate)).toBe(false);
  });

  it.each([
    ['Service', 'default'],
    ['Namespace', undefined],
    ['ClusterRole', undefined],
  ])('%s: namespaced kinds default to the default namespace, cluster-scoped kinds have none', (kind, namespace) => {
    const { metadata: _, ...rest } = BUNDLE_OBJECTS[kind]!();
    const object = decodeObject({ ...rest, metadata: { name: kind === 'ClusterRole' ? 'reader' : 'web' } });
    expect(object.metadata.namespace).toBe(namespace);
  });

  it('refuses a namespace on a cluster-scoped kind', () => {
    expect(causesOf({ ...BUNDLE_OBJECTS.Namespace!(), metadata: { name: 'shop', namespace: 'default' } })).toEqual([
      { field: 'metadata.namespace', message: 'must not be set: Namespace is cluster-scoped' },
    ]);
  });
});

describe('Service (ValidateService)', () => {
  it.each<[string, unknown, { field: string; message: string }]>([
    ['a name that is no RFC 1035 label', service({ ports: [{ port: 80 }] }, '1web'), { field: 'metadata.name', message: expect.stringContaining('RFC 1035 label') }],
    ['no ports', service({ selector: { app: 'web' } }), { field: 'spec.ports', message: 'is required: a Service of type ClusterIP must expose at least one port' }],
    ['a port out of range', service({ ports: [{ port: 70000 }] }), { field: 'spec.ports[0].port', message: 'must be between 1 and 65535' }],
    ['an unknown protocol', service({ ports: [{ port: 80, protocol: 'HTTP' }] }), { field: 'spec.ports[0].protocol', message: expect.stringContaining('TCP') }],
    ['an unnamed port among two', service({ ports: [{ name: 'a', port: 80 }, { port: 81 }] }), { field: 'spec.ports[1].name', message: 'is required when a Service has more than one port' }],
    ['two ports of one name', service({ ports: [{ name: 'a', port: 80 }, { name: 'a', port: 81 }] }), { field: 'spec.ports[1].name', message: 'must be unique: "a" is used by an earlier port' }],
    ['a port exposed twice', service({ ports: [{ name: 'a', port: 80 }, { name: 'b', port: 80, protocol: 'TCP' }] }), { field: 'spec.ports[1]', message: 'must be unique: port 80/TCP is exposed by an earlier port' }],
    ['a nodePort on a ClusterIP Service', service({ ports: [{ port: 80, nodePort: 30080 }] }), { field: 'spec.ports[0].nodePort', message: 'may not be used when type is ClusterIP' }],
    ['an ExternalName Service without its name', service({ type: 'ExternalName' }), { field: 'spec.externalName', message: 'is required when type is ExternalName' }],
    ['a target port name of 16 characters', service({ ports: [{ port: 80, targetPort: 'a'.repeat(16) }] }), { field: 'spec.ports[0].targetPort', message: expect.any(String) }],
    ['a misspelt field', service({ ports: [{ port: 80, targetport: 80 }] }), { field: 'spec.ports[0].targetport', message: 'unknown field' }],
  ])('refuses %s', (_, raw, cause) => {
    expect(causesOf(raw)).toContainEqual(cause);
  });

  it.each([
    ['a headless Service without ports', service({ clusterIP: 'None', selector: { app: 'db' } })],
    ['an ExternalName Service', service({ type: 'ExternalName', externalName: 'db.example.com' })],
    ['a NodePort Service with its node port', service({ type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }], externalTrafficPolicy: 'Local' })],
    ['a LoadBalancer Service with fields outrank does not read', service({ type: 'LoadBalancer', ports: [{ port: 443, targetPort: 'https', appProtocol: 'https' }], loadBalancerSourceRanges: ['10.0.0.0/8'] })],
  ])('accepts %s', (_, raw) => {
    expect(decodeObject(raw)).toMatchObject({ kind: 'Service' });
  });
});

describe('ConfigMap and Secret', () => {
  it.each<[string, unknown, { field: string; message: string }]>([
    ['a ConfigMap key with a slash', configMap({ data: { 'a/b': 'x' } }), { field: 'data.a/b', message: expect.stringContaining('key must consist of alphanumeric characters') }],
    ['a ConfigMap key of ".."', configMap({ data: { '..': 'x' } }), { field: 'data...', message: expect.stringContaining('must not be "." or ".."') }],
    ['binaryData not in base64', configMap({ binaryData: { blob: 'not base64!' } }), { field: 'binaryData.blob', message: expect.stringContaining('base64') }],
    ['a key in data and binaryData', configMap({ data: { a: 'x' }, binaryData: { a: base64('x') } }), { field: 'binaryData.a', message: 'must not also be a key of data: "a" is there' }],
    ['Secret data not in base64', secret({ data: { password: 's3cret!' } }), { field: 'data.password', message: expect.stringContaining('base64') }],
    ['a TLS Secret without its key', secret({ type: 'kubernetes.io/tls', data: { 'tls.crt': base64('cert') } }), { field: 'data.tls.key', message: 'is required for a Secret of type kubernetes.io/tls' }],
    ['a docker config that is no JSON', secret({ type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': base64('{') } }), { field: 'data..dockerconfigjson', message: 'must hold JSON for a Secret of type kubernetes.io/dockerconfigjson' }],
    ['a basic-auth Secret without username or password', secret({ type: 'kubernetes.io/basic-auth', data: {} }), { field: 'data', message: expect.stringContaining('username or a password') }],
    ['a service account token without its account', secret({ type: 'kubernetes.io/service-account-token' }), { field: 'metadata.annotations.kubernetes.io/service-account.name', message: expect.stringContaining('is required') }],
  ])('refuses %s', (_, raw, cause) => {
    expect(causesOf(raw)).toContainEqual(cause);
  });

  it('stores a Secret as kube-apiserver does: stringData merged into data in base64, winning over it, and not kept', () => {
    const object = decodeObject(secret({ data: { user: base64('old'), token: base64('t') }, stringData: { user: 'admin' } })) as Record<string, unknown>;
    expect(object.data).toEqual({ user: base64('admin'), token: base64('t') });
    expect(object).not.toHaveProperty('stringData');
  });

  it('checks the keys a type requires after stringData is merged', () => {
    expect(decodeObject(secret({ type: 'kubernetes.io/tls', stringData: { 'tls.crt': 'cert', 'tls.key': 'key' } }))).toMatchObject({ kind: 'Secret' });
  });

  it('drops an unknown field under Warn, naming it', () => {
    const { unknownFields } = decodeObjectWith({ ...configMap({ data: { a: 'x' } }), dta: {} }, 'Warn');
    expect(unknownFields).toEqual(['dta']);
  });
});

describe('ServiceAccount and Namespace', () => {
  it('refuses a Namespace name that is no DNS label, and an unknown field of a ServiceAccount', () => {
    expect(causesOf({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team.a' } })).toContainEqual({ field: 'metadata.name', message: expect.stringContaining('RFC 1123 label') });
    expect(causesOf({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'web' }, automount: true })).toEqual([{ field: 'automount', message: 'unknown field' }]);
  });

  it('refuses a version of a core kind that outrank does not serve', () => {
    expect(causesOf({ apiVersion: 'v2', kind: 'ConfigMap', metadata: { name: 'c' } })).toEqual([{ field: 'apiVersion', message: 'v2 does not serve ConfigMap' }]);
  });
});
