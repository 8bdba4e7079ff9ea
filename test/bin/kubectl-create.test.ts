/**
 * kubectl's `create <kind>` subcommands against the API with the real kubectl (v1.32 on these
 * machines): they send built-in kinds as protobuf, never JSON, and each object is created as kubectl
 * describes it. Skipped, saying so, where kubectl is not installed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api-server';
import { kubectlFor, type Kubectl } from './support/kubectl';
import { kubectlInstalled } from './support/kubectl-installed';
import { tempFile } from './support/run-cli';

let api: TestApi;
let kubectl: Kubectl;

describe.runIf(kubectlInstalled('kubectl-create'))('kubectl create <kind>', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    api = await startTestApi();
    kubectl = await kubectlFor(() => api.url);
  });
  afterAll(() => api.close());

  it('create deployment makes the Deployment kubectl describes, with its selector, command and port', async () => {
    const created = await kubectl('create', 'deployment', 'web', '--image=nginx', '--replicas=2', '--port=80', '--', 'nginx', '-g', 'daemon off;');
    expect(created).toMatchObject({ code: 0, stdout: 'deployment.apps/web created\n' });
    const spec = JSON.parse((await kubectl('get', 'deployment', 'web', '-o', 'jsonpath={.spec}')).stdout);
    expect(spec).toEqual({
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      strategy: {},
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx', command: ['nginx', '-g', 'daemon off;'], ports: [{ containerPort: 80 }], resources: {} }] },
      },
    });
  });

  it.each([
    [['job', 'once', '--image=busybox', '--', 'echo', 'hi'], 'job.batch/once created'],
    [['namespace', 'team-c'], 'namespace/team-c created'],
    [['priorityclass', 'urgent', '--value=1000', '--description=on call', '--preemption-policy=Never'], 'priorityclass.scheduling.k8s.io/urgent created'],
    [['service', 'clusterip', 'web', '--tcp=80:http'], 'service/web created'],
    [['service', 'nodeport', 'edge', '--tcp=80:8080', '--node-port=30080'], 'service/edge created'],
    [['configmap', 'settings', '--from-literal=mode=fast'], 'configmap/settings created'],
    [['secret', 'generic', 'token', '--from-literal=key=value'], 'secret/token created'],
    [['serviceaccount', 'robot'], 'serviceaccount/robot created'],
    [['role', 'reader', '--verb=get,list', '--resource=deployments'], 'role.rbac.authorization.k8s.io/reader created'],
    [['rolebinding', 'readers', '--role=reader', '--user=alice', '--serviceaccount=default:robot'], 'rolebinding.rbac.authorization.k8s.io/readers created'],
    [['clusterrole', 'viewer', '--verb=get', '--resource=deployments.apps'], 'clusterrole.rbac.authorization.k8s.io/viewer created'],
    [['clusterrolebinding', 'viewers', '--clusterrole=viewer', '--group=ops'], 'clusterrolebinding.rbac.authorization.k8s.io/viewers created'],
  ])('create %j', async (args, printed) => {
    expect(await kubectl('create', ...args)).toMatchObject({ code: 0, stdout: `${printed}\n`, stderr: '' });
  });

  it('keeps what each kind says: a PriorityClass\'s value and policy, a Secret\'s data, a named target port', async () => {
    expect((await kubectl('get', 'priorityclass', 'urgent', '-o', 'jsonpath={.value} {.preemptionPolicy} {.description}')).stdout).toBe('1000 Never on call');
    expect((await kubectl('get', 'secret', 'token', '-o', 'jsonpath={.data.key}')).stdout).toBe(Buffer.from('value').toString('base64'));
    expect(JSON.parse((await kubectl('get', 'service', 'web', '-o', 'jsonpath={.spec.ports}')).stdout)).toEqual([{ name: '80-http', port: 80, protocol: 'TCP', targetPort: 'http' }]);
    expect((await kubectl('get', 'service', 'edge', '-o', 'jsonpath={.spec.ports[0].nodePort}')).stdout).toBe('30080');
    expect(JSON.parse((await kubectl('get', 'role', 'reader', '-o', 'jsonpath={.rules}')).stdout)).toEqual([{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list'] }]);
  });

  it('create of an existing name is AlreadyExists, as from JSON', async () => {
    const again = await kubectl('create', 'deployment', 'web', '--image=nginx');
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('error: failed to create deployment: deployments.apps "web" already exists\n');
  });

  it('create -f names an object from its generateName, and refuses one with neither name nor generateName', async () => {
    const generated = await tempFile('generated.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {generateName: settings-}\ndata: {mode: fast}\n');
    const first = await kubectl('create', '-f', generated);
    const second = await kubectl('create', '-f', generated);
    expect(first.stdout).toMatch(/^configmap\/settings-[bcdfghjklmnpqrstvwxz2456789]{5} created\n$/);
    expect(second.stdout).toMatch(/^configmap\/settings-[bcdfghjklmnpqrstvwxz2456789]{5} created\n$/);
    expect(second.stdout).not.toBe(first.stdout);
    const unnamed = await kubectl('create', '-f', await tempFile('unnamed.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {labels: {app: web}}\n'));
    expect(unnamed.code).toBe(1);
    expect(unnamed.stderr).toBe('The ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required\n');
  });

  it('delete of an object carrying a finalizer marks it; it goes when patched free of it, and a waiting delete then returns', async () => {
    const held = await tempFile('held.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: held, finalizers: [example.com/hold]}\n');
    expect((await kubectl('create', '-f', held)).code).toBe(0);
    expect(await kubectl('delete', 'configmap', 'held', '--wait=false')).toMatchObject({ code: 0, stdout: 'configmap "held" deleted\n' });
    expect((await kubectl('get', 'configmap', 'held', '-o', 'jsonpath={.metadata.deletionTimestamp}')).stdout).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const adding = await kubectl('patch', 'configmap', 'held', '--type=merge', '-p', '{"metadata":{"finalizers":["example.com/hold","example.com/more"]}}');
    expect(adding.code).toBe(1);
    expect(adding.stderr).toContain('metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted');
    const deletes = () => api.requests.filter((request) => request.startsWith('DELETE /api/v1/namespaces/default/configmaps/held')).length;
    const waiting = kubectl('delete', 'configmap', 'held', '--timeout=30s');
    // Freed only once the second delete has arrived: kubectl then waits for the object to go.
    for (let waited = 0; deletes() < 2; waited += 20) {
      if (waited > 10_000) throw new Error('kubectl delete sent no request');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await kubectl('patch', 'configmap', 'held', '--type=merge', '-p', '{"metadata":{"finalizers":null}}')).code).toBe(0);
    expect(await waiting).toMatchObject({ code: 0, stdout: 'configmap "held" deleted\n' });
    expect((await kubectl('get', 'configmap', 'held')).stderr).toBe('Error from server (NotFound): configmaps "held" not found\n');
  });

  it('delete namespace deletes what it holds, then the namespace', async () => {
    expect((await kubectl('create', 'namespace', 'team-z')).code).toBe(0);
    expect((await kubectl('create', 'deployment', 'api', '--image=api', '-n', 'team-z')).code).toBe(0);
    expect((await kubectl('create', 'configmap', 'settings', '--from-literal=a=b', '-n', 'team-z')).code).toBe(0);
    expect(await kubectl('delete', 'namespace', 'team-z', '--timeout=30s')).toMatchObject({ code: 0, stdout: 'namespace "team-z" deleted\n' });
    expect((await kubectl('get', 'namespace', 'team-z')).stderr).toBe('Error from server (NotFound): namespaces "team-z" not found\n');
    expect((await kubectl('get', 'deployments,configmaps', '-n', 'team-z')).stderr).toBe('No resources found in team-z namespace.\n');
  });

  it('get deployments shows kubectl\'s columns and where the binding placed each, or why not', async () => {
    const policy = await tempFile('policy.yaml', `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: member1}
status: {resourceSummary: {allocatable: {cpu: "8", memory: 32Gi, pods: "110"}}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: placed, namespace: shop}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`);
    expect((await kubectl('apply', '-f', policy)).code).toBe(0);
    expect((await kubectl('create', 'deployment', 'cart', '--image=cart:1', '--replicas=3', '-n', 'shop')).code).toBe(0);
    expect((await kubectl('create', 'deployment', 'lonely', '--image=lonely', '-n', 'elsewhere')).code).toBe(0);
    const table = (await kubectl('get', 'deployments', '-A', '-o', 'wide')).stdout.trimEnd().split('\n').map((line) => line.split(/\s{2,}/));
    expect(table[0]).toEqual(['NAMESPACE', 'NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'PLACEMENT', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR', 'PRIORITY-CLASS']);
    const row = (name: string) => table.find((cells) => cells[1] === name)!;
    expect(row('cart')).toEqual(['shop', 'cart', '0/3', '0', '0', 'member1:3', expect.any(String), 'cart', 'cart:1', 'app=cart', '<none>']);
    // No policy claims it: no binding, nowhere placed.
    expect(row('lonely').slice(2, 6)).toEqual(['0/1', '0', '0', '<none>']);
  });

  it('create -f of what create --dry-run=client -o json prints (creationTimestamp: null) creates it', async () => {
    const printed = await kubectl('create', 'priorityclass', 'printed', '--value=7', '--dry-run=client', '-o', 'json');
    expect(JSON.parse(printed.stdout).metadata.creationTimestamp).toBeNull();
    const created = await kubectl('create', '-f', await tempFile('printed.json', printed.stdout));
    expect(created).toMatchObject({ code: 0, stdout: 'priorityclass.scheduling.k8s.io/printed created\n' });
    expect((await kubectl('get', 'priorityclass', 'printed', '-o', 'jsonpath={.metadata.creationTimestamp}')).stdout).toMatch(/^\d{4}-/);
  });
});
