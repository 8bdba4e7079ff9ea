/**
 * Karmada's Cluster fields and their validation, ported from pkg/apis/cluster/validation/validation_test.go
 * (TestValidateCluster, each case by name), and Karmada's mutation of a written Cluster
 * (pkg/apis/cluster/mutation, migrateZoneToZones). Karmada's API server standardizes resource models
 * before it validates them (pkg/registry/cluster/strategy.go, PrepareForCreate); outrank validates them
 * standardized too, and stores them as written.
 */
import { describe, expect, it } from 'vitest';
import { clusterSchema } from '../../../lib/api/cluster';
import { mutatedCluster, withZonesMigrated } from '../../../lib/api/cluster-mutation';
import { resourceModelsProblem, type ResourceModel } from '../../../lib/api/cluster-resource-models';

const KARMADA = 'pkg/apis/cluster/validation/validation_test.go, TestValidateCluster';
const MAX_INT64 = '9223372036854775807';

function cluster(name: string, spec: Record<string, unknown>) {
  return { apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name }, spec };
}

/** The fields refused, each once (an empty name breaks two rules of one field). */
function paths(name: string, spec: Record<string, unknown>): string[] {
  return [...new Set((clusterSchema.safeParse(cluster(name, spec)).error?.issues ?? []).map((issue) => issue.path.join('.')))];
}

describe(`Cluster validation (${KARMADA})`, () => {
  it.each<[string, string, Record<string, unknown>, string[]]>([
    ['zero-length name', '', { syncMode: 'Push' }, ['metadata.name']],
    ['invalid name', '^Invalid', { syncMode: 'Push' }, ['metadata.name']],
    ['invalid name that is too long', 'a'.repeat(49), { syncMode: 'Push' }, ['metadata.name']],
    ['unsupported sync mode', 'foo', { syncMode: '^Invalid' }, ['spec.syncMode']],
    ['invalid apiEndpoint', 'foo', { syncMode: 'Push', apiEndpoint: '^Invalid' }, ['spec.apiEndpoint']],
    ['empty secretRef', 'foo', { syncMode: 'Push', secretRef: { namespace: '', name: '' } }, ['spec.secretRef.namespace', 'spec.secretRef.name']],
    ['empty impersonatorSecretRef', 'foo', { syncMode: 'Push', impersonatorSecretRef: { namespace: '', name: '' } }, ['spec.impersonatorSecretRef.namespace', 'spec.impersonatorSecretRef.name']],
    ['invalid proxyURL', 'foo', { syncMode: 'Push', proxyURL: '^Invalid' }, ['spec.proxyURL']],
    ['invalid provider', 'foo', { syncMode: 'Push', provider: 'Invalid Provider' }, ['spec.provider']],
    ['invalid region', 'foo', { syncMode: 'Push', region: 'Invalid Region' }, ['spec.region']],
    ['invalid zone', 'foo', { syncMode: 'Push', zone: 'Invalid Zone' }, ['spec.zone']],
    ['invalid zones', 'foo', { syncMode: 'Push', zones: ['Invalid Zone', 'Zone2'] }, ['spec.zones.0']],
    ['co-exist zones and zone', 'foo', { syncMode: 'Push', zone: 'Zone', zones: ['Zones'] }, ['spec.zone']],
    ['unsupported taint effect', 'foo', { syncMode: 'Push', taints: [{ key: 'foo', value: 'bar', effect: '^Invalid' }] }, ['spec.taints.0.effect']],
  ])("'%s' is refused, naming the field", (_, name, spec, expected) => {
    expect(paths(name, spec)).toEqual(expected);
  });

  it("'no sync mode': accepted, a deliberate divergence (outrank does not connect to member clusters; README, Object reference)", () => {
    expect(paths('foo', {})).toEqual([]);
  });

  it.each<[string, string, string]>([
    ['a URL without a host', 'https://', 'spec.apiEndpoint'],
    ['user information', 'https://admin:secret@172.18.0.3:6443', 'user information is not permitted in the URL'],
    ['a fragment', 'https://172.18.0.3:6443#x', 'fragments are not permitted in the URL'],
    ['query parameters', 'https://172.18.0.3:6443?x=1', 'query parameters are not permitted in the URL'],
    ['no scheme (Go reads it as a path: no host)', '172.18.0.3:6443', 'host must be provided; desired format: hostname, hostname:port, IP or IP:port'],
  ])('apiEndpoint with %s is refused (ValidateClusterAPIEndpoint)', (_, apiEndpoint, expected) => {
    const issues = clusterSchema.safeParse(cluster('foo', { apiEndpoint })).error?.issues ?? [];
    expect(issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('\n')).toContain(expected);
  });

  it.each(['https://172.18.0.3:6443', 'https://member1.example.com', 'http://10.0.0.1'])('apiEndpoint %s is accepted', (apiEndpoint) => {
    expect(paths('foo', { apiEndpoint })).toEqual([]);
  });

  it.each<[string, boolean]>([
    ['socks5://proxy.example.com:1080', true],
    ['http://proxy:3128', true],
    ['HTTPS://proxy', true],
    ['ftp://proxy', false],
    ['proxy:3128', false],
  ])('proxyURL %s valid: %s (ValidateClusterProxyURL: http, https or socks5)', (proxyURL, valid) => {
    expect(paths('foo', { proxyURL }).length === 0).toBe(valid);
  });

  it('taints must be unique by key and effect pair (lifted ValidateClusterTaints)', () => {
    const taints = [
      { key: 'dedicated', value: 'a', effect: 'NoSchedule' },
      { key: 'dedicated', value: 'b', effect: 'NoExecute' },
      { key: 'dedicated', value: 'c', effect: 'NoSchedule' },
    ];
    const issues = clusterSchema.safeParse(cluster('foo', { taints })).error?.issues ?? [];
    expect(issues.map((issue) => ({ path: issue.path, message: issue.message }))).toEqual([{ path: ['spec', 'taints', 2], message: 'taints must be unique by key and effect pair' }]);
  });

  it('accepts every connection field as Karmada writes them, and its status shapes', () => {
    const result = clusterSchema.safeParse({
      ...cluster('member1', {
        id: '7d1c0a52-2f0e-4bb6-9d39-0c4e3c7e2a11',
        syncMode: 'Pull',
        apiEndpoint: 'https://172.18.0.4:6443',
        secretRef: { namespace: 'karmada-cluster', name: 'member1' },
        impersonatorSecretRef: { namespace: 'karmada-cluster', name: 'member1-impersonator' },
        insecureSkipTLSVerification: true,
        proxyURL: 'socks5://proxy.example.com:1080',
        proxyHeader: { 'Proxy-Authorization': 'Basic dXNlcjpwYXNz' },
        provider: 'aws',
        region: 'eu-west-1',
        zones: ['eu-west-1a'],
      }),
      status: {
        kubernetesVersion: 'v1.31.0',
        apiEnablements: [{ groupVersion: 'apps/v1', resources: [{ name: 'deployments', kind: 'Deployment' }] }],
        nodeSummary: { totalNum: 3, readyNum: 3 },
        resourceSummary: { allocatable: { cpu: '8' }, allocatableModelings: [{ grade: 0, count: 2 }, { grade: 1, count: 1 }] },
        remedyActions: ['TrafficControl'],
      },
    });
    expect(result.error?.issues).toBeUndefined();
  });
});

describe(`resource models (${KARMADA}, the resource model cases; ValidateClusterResourceModels)`, () => {
  const range = (name: string, min: string, max: string) => ({ name, min, max });
  const model = (grade: number, ...ranges: ReturnType<typeof range>[]): ResourceModel => ({ grade, ranges });

  it.each<[string, ResourceModel[], string]>([
    ['invalid cluster resource models with different numbers of resource types', [model(1, range('cpu', '0', '2')), model(2, range('cpu', '2', MAX_INT64), range('memory', '2', MAX_INT64))], 'The number of resource types should be the same'],
    ['invalid cluster resource models which the resource types of each models are different', [model(1, range('cpu', '0', '2')), model(2, range('memory', '2', MAX_INT64))], 'The resource types of each models should be the same'],
    ['invalid cluster resource models with contiguous and non-overlapping', [model(1, range('cpu', '0', '2')), model(2, range('cpu', '1', MAX_INT64))], 'Model intervals for resources must be contiguous and non-overlapping'],
    ['two models of one grade', [model(1, range('cpu', '0', '2')), model(1, range('cpu', '2', MAX_INT64))], 'The grade of each models should not be the same'],
    ['a middle range whose max is not above its min', [model(0, range('cpu', '0', '2')), model(1, range('cpu', '2', '2')), model(2, range('cpu', '2', MAX_INT64))], 'The max value of each resource must be greater than the min value'],
  ])("'%s' is refused on spec.resourceModels", (_, models, message) => {
    expect(resourceModelsProblem(models)).toBe(message);
    const issues = clusterSchema.safeParse(cluster('foo', { syncMode: 'Push', resourceModels: models })).error?.issues ?? [];
    expect(issues.map((issue) => ({ path: issue.path, message: issue.message }))).toEqual([{ path: ['spec', 'resourceModels'], message }]);
  });

  it.each<[string, ResourceModel[]]>([
    ['invalid cluster resource models with unreasonable ranges', [model(1, range('cpu', '2', '0'))]],
    ['invalid cluster resource models which the min value of each resource in the first model is not 0', [model(1, range('cpu', '1', MAX_INT64))]],
    ['invalid cluster resource models which the max value of each resource in the last model is not MaxInt64', [model(1, range('cpu', '0', '2'))]],
  ])("'%s': accepted, as Karmada's API server standardizes the first minimums and last maximums before it validates", (_, models) => {
    expect(resourceModelsProblem(models)).toBeUndefined();
  });

  it.each<[string, ResourceModel[]]>([
    ['invalid cluster resource models with the same grade (grades 1 and 2 differ: only its missing syncMode fails it in Karmada)', [model(1, range('cpu', '0', '2')), model(2, range('cpu', '2', MAX_INT64))]],
    ['invalid cluster resource models with invalid resource name (Karmada does not check the name: only its missing syncMode fails it)', [model(1, range('test', '0', MAX_INT64))]],
  ])("'%s': accepted with a syncMode", (_, models) => {
    expect(paths('foo', { syncMode: 'Push', resourceModels: models })).toEqual([]);
  });

  it("Karmada's default models, written in any grade order, with quantities of any size and suffix", () => {
    const models = [
      model(1, range('cpu', '1', '2'), range('memory', '4Gi', '16Gi')),
      model(0, range('cpu', '0', '1'), range('memory', '0', '4Gi')),
      model(2, range('cpu', '2', MAX_INT64), range('memory', '16Gi', MAX_INT64)),
    ];
    expect(resourceModelsProblem(models)).toBeUndefined();
    expect(paths('foo', { resourceModels: [{ grade: 0, ranges: [{ name: 'cpu', min: 0, max: '1e999999999999' }] }] })).toEqual(['spec.resourceModels.0.ranges.0.max']);
  });
});

describe('Karmada’s mutation of a written Cluster (pkg/apis/cluster/mutation/mutation_test.go, migrateZoneToZones)', () => {
  const parsed = (spec: Record<string, unknown>) => clusterSchema.parse(cluster('member1', spec));

  it('a cluster with zone alone is stored with zones [zone], which placement reads', () => {
    expect(withZonesMigrated(parsed({ zone: 'eu-west-1a', region: 'eu-west-1' })).spec).toEqual({ region: 'eu-west-1', zones: ['eu-west-1a'] });
  });

  it('a cluster with zones, or neither, is unchanged', () => {
    const withZones = parsed({ zones: ['a', 'b'] });
    expect(withZonesMigrated(withZones)).toBe(withZones);
    const bare = parsed({});
    expect(withZonesMigrated(bare)).toBe(bare);
  });

  it('mutatedCluster also times NoExecute taints (mutateClusterTaints)', () => {
    const mutated = mutatedCluster(parsed({ zone: 'z1', taints: [{ key: 'k', effect: 'NoExecute' }] }), undefined, '2026-01-01T00:00:00Z');
    expect(mutated.spec).toEqual({ taints: [{ key: 'k', effect: 'NoExecute', timeAdded: '2026-01-01T00:00:00Z' }], zones: ['z1'] });
  });
});
