/**
 * A Karmada user's repository applies unchanged with the real kubectl (v1.32 on these machines): a
 * directory holding a workload with its Service, ConfigMap, Secret and ServiceAccount, a
 * CustomResourceDefinition and one of its objects, the PropagationPolicy that selects them all and
 * OverridePolicies. kubectl then lists them (`get all`, the custom kind by name and short name, with
 * the CRD's printer columns) and every binding of the bundle is placed: the templates without replicas
 * on every cluster the policy selects, as Karmada places a non-workload. Skipped, saying so, where
 * kubectl is not installed.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api-server';
import { kubectlInstalled } from './support/kubectl-installed';
import { rows } from './support/run-cli';

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

let api: TestApi;
let home: string;
let bundle: string;

/** kubectl with no kubeconfig and a cache of its own, so no discovery or OpenAPI document of another server is reused. */
function kubectl(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile('kubectl', [...args, '--server', api.url], { env: { ...process.env, KUBECONFIG: '/dev/null', HOME: home } }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const CLUSTERS = ['member1', 'member2', 'member3']
  .map((name) => `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: ${name}}
status: {resourceSummary: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}}
`)
  .join('---\n');

/** A Karmada-style repository: one file per concern, as such repositories are laid out. */
const BUNDLE: Readonly<Record<string, string>> = {
  'crd.yaml': `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: crontabs.stable.example.com}
spec:
  group: stable.example.com
  names: {plural: crontabs, singular: crontab, kind: CronTab, shortNames: [ct], categories: [all]}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [cronSpec]
            properties:
              cronSpec: {type: string, description: "When the job runs, in cron syntax."}
              image: {type: string}
    additionalPrinterColumns:
    - {name: Spec, type: string, jsonPath: .spec.cronSpec}
    - {name: Age, type: date, jsonPath: .metadata.creationTimestamp}
`,
  'crontab.yaml': `apiVersion: stable.example.com/v1
kind: CronTab
metadata: {name: nightly}
spec: {cronSpec: "0 3 * * *", image: "backup:1"}
`,
  'deployment.yaml': `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {app: web}}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      serviceAccountName: web
      containers:
      - name: main
        image: nginx
        envFrom: [{configMapRef: {name: web-config}}, {secretRef: {name: web-secret}}]
        resources: {requests: {cpu: 250m}}
`,
  'service.yaml': `apiVersion: v1
kind: Service
metadata: {name: web, labels: {app: web}}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: 8080}]
`,
  'config.yaml': `apiVersion: v1
kind: ConfigMap
metadata: {name: web-config, labels: {app: web}}
data: {LOG_LEVEL: info}
---
apiVersion: v1
kind: Secret
metadata: {name: web-secret, labels: {app: web}}
type: Opaque
stringData: {PASSWORD: s3cret}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: web, labels: {app: web}}
`,
  'propagation.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web}
spec:
  resourceSelectors:
  - {apiVersion: apps/v1, kind: Deployment, name: web}
  - {apiVersion: v1, kind: Service, name: web}
  - {apiVersion: v1, kind: ConfigMap, name: web-config}
  - {apiVersion: v1, kind: Secret, name: web-secret}
  - {apiVersion: v1, kind: ServiceAccount, name: web}
  - {apiVersion: stable.example.com/v1, kind: CronTab, name: nightly}
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
`,
  'overrides.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: web-eu}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  overrideRules:
  - targetCluster: {clusterNames: [member2]}
    overriders:
      imageOverrider: [{component: Registry, operator: replace, value: registry.eu.example.com}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterOverridePolicy
metadata: {name: owner}
spec:
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]
  overrideRules:
  - overriders:
      annotationsOverrider: [{operator: add, value: {example.com/owner: platform}}]
`,
};

interface BindingItem {
  readonly metadata: { readonly name: string };
  readonly spec: { readonly replicas?: number; readonly replicaRequirements?: unknown; readonly clusters?: Array<{ name: string; replicas: number }> };
}

describe.runIf(kubectlInstalled('kubectl-bundle'))('kubectl apply -f of a Karmada repository', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'outrank-bundle-'));
    bundle = join(home, 'repository');
    await mkdir(bundle);
    for (const [name, text] of Object.entries(BUNDLE)) await writeFile(join(bundle, name), text);
    await writeFile(join(home, 'clusters.yaml'), CLUSTERS);
    api = await startTestApi();
    expect((await kubectl('apply', '-f', join(home, 'clusters.yaml'))).code).toBe(0);
  });
  afterAll(() => api.close());

  it('applies the directory as against kube-apiserver: the custom resource waits for its CRD, and the next apply takes it', async () => {
    const first = await kubectl('apply', '-f', bundle);
    // kubectl maps every object before applying any: the CronTab's kind is not served until its CRD is stored.
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('no matches for kind "CronTab" in version "stable.example.com/v1"\nensure CRDs are installed first');
    expect(first.stdout.trim().split('\n').sort()).toEqual([
      'clusteroverridepolicy.policy.karmada.io/owner created',
      'configmap/web-config created',
      'customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created',
      'deployment.apps/web created',
      'overridepolicy.policy.karmada.io/web-eu created',
      'propagationpolicy.policy.karmada.io/web created',
      'secret/web-secret created',
      'service/web created',
      'serviceaccount/web created',
    ]);
    const second = await kubectl('apply', '-f', bundle);
    expect(second).toMatchObject({ code: 0, stderr: '' });
    expect(second.stdout).toContain('crontab.stable.example.com/nightly created\n');
    expect(second.stdout).toContain('deployment.apps/web unchanged\n');
    expect((await kubectl('wait', '--for', 'condition=established', 'crd/crontabs.stable.example.com', '--timeout', '10s')).code).toBe(0);
  });

  it('kubectl get all lists the workload, its Service and the custom resource of the category all', async () => {
    const all = await kubectl('get', 'all');
    expect(all.code).toBe(0);
    const names = rows(all.stdout).map((row) => row[0]);
    expect(names).toEqual(expect.arrayContaining(['service/web', 'deployment.apps/web', 'crontab.stable.example.com/nightly']));
    expect(rows(all.stdout)).toContainEqual(['service/web', 'ClusterIP', '<none>', '<none>', '80/TCP', expect.any(String)]);
  });

  it('kubectl get <custom kind> prints its printer columns, by plural, short name and kind; api-resources and explain know it', async () => {
    for (const name of ['crontabs', 'ct', 'crontab.stable.example.com']) {
      expect(rows((await kubectl('get', name)).stdout)).toEqual([['NAME', 'SPEC', 'AGE'], ['nightly', '0 3 * * *', expect.any(String)]]);
    }
    expect(rows((await kubectl('api-resources', '--api-group', 'stable.example.com')).stdout)).toEqual([
      ['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND'],
      ['crontabs', 'ct', 'stable.example.com/v1', 'true', 'CronTab'],
    ]);
    expect((await kubectl('explain', 'crontab.spec.cronSpec')).stdout).toContain('When the job runs, in cron syntax.');
  });

  it('lists the bundle\'s other kinds with kubectl\'s columns, the Secret stored as kube-apiserver stores it', async () => {
    const listed = await kubectl('get', 'configmaps,secrets,serviceaccounts,overridepolicies,clusteroverridepolicies');
    expect(listed.code).toBe(0);
    expect(rows(listed.stdout)).toEqual(
      expect.arrayContaining([
        ['configmap/web-config', '1', expect.any(String)],
        ['secret/web-secret', 'Opaque', '1', expect.any(String)],
        ['serviceaccount/web', '0', expect.any(String)],
        ['overridepolicy.policy.karmada.io/web-eu', expect.any(String)],
        ['clusteroverridepolicy.policy.karmada.io/owner', expect.any(String)],
      ]),
    );
    expect((await kubectl('get', 'secret', 'web-secret', '-o', 'jsonpath={.data.PASSWORD}')).stdout).toBe(Buffer.from('s3cret').toString('base64'));
  });

  it('places every binding of the bundle: the templates without replicas on each cluster the policy selects, the workload by its replicas', async () => {
    const listed = await kubectl('get', 'resourcebindings', '-o', 'json');
    const bindings = new Map((JSON.parse(listed.stdout).items as BindingItem[]).map((binding) => [binding.metadata.name, binding.spec]));
    const everySelected = [{ name: 'member1', replicas: 0 }, { name: 'member2', replicas: 0 }];
    for (const name of ['web-service', 'web-config-configmap', 'web-secret-secret', 'web-serviceaccount', 'nightly-crontab']) {
      const spec = bindings.get(name);
      expect(spec?.clusters, name).toEqual(everySelected);
      expect(spec, name).not.toHaveProperty('replicas');
      expect(spec, name).not.toHaveProperty('replicaRequirements');
    }
    expect(bindings.get('web-deployment')?.clusters).toEqual([{ name: 'member1', replicas: 2 }, { name: 'member2', replicas: 2 }]);
    expect([...bindings.keys()].sort()).toEqual(['nightly-crontab', 'web-config-configmap', 'web-deployment', 'web-secret-secret', 'web-service', 'web-serviceaccount']);
  });

  it('validates a custom resource by its CRD\'s schema, and a Service as kube-apiserver does, naming the field', async () => {
    const badCronTab = join(home, 'bad-crontab.yaml');
    await writeFile(badCronTab, BUNDLE['crontab.yaml']!.replace('image:', 'imagee:'));
    const refused = await kubectl('apply', '-f', badCronTab);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('spec.imagee: unknown field');
    const badService = join(home, 'bad-service.yaml');
    await writeFile(badService, BUNDLE['service.yaml']!.replace('name: web,', 'name: db,').replace(/ports: .*\n/, 'ports: []\n'));
    const noPorts = await kubectl('apply', '-f', badService);
    expect(noPorts.code).toBe(1);
    expect(noPorts.stderr).toContain('spec.ports: is required: a Service of type ClusterIP must expose at least one port');
  });
});
