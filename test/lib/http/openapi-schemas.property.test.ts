/**
 * Every kind's OpenAPI schema says what its zod schema accepts: on random changes to valid objects
 * (an unknown field anywhere, a scalar of another type anywhere) a client validating with the OpenAPI
 * document (ajv with the draft-04 rules OpenAPI 3.0 follows) and the server agree exactly. Removing a field, or putting an empty object or
 * list in a field's place, is checked one way: the document never refuses what the server accepts.
 * The other way cannot hold for rules between fields that OpenAPI cannot state (preemption Always
 * needs a selector name (002), a toleration without key must be Exists, In needs values …), which
 * the server alone enforces.
 */
import Ajv from 'ajv-draft-04';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { schemaOf } from '../../../lib/api/decode';
import { groupVersionDocument, schemaName } from '../../../lib/http/openapi';
import { SERVED_RESOURCES, ServedResources } from '../../../lib/http/served-resources';
import { BUNDLE_OBJECTS } from '../../support/bundle-objects';

const pod = {
  metadata: { labels: { app: 'web' } },
  spec: {
    containers: [{ name: 'main', image: 'nginx', ports: [{ containerPort: 80 }], resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: 1 } } }],
    initContainers: [{ name: 'init', resources: { requests: { cpu: '1' } } }],
    nodeSelector: { disk: 'ssd' },
    priorityClassName: 'high',
  },
};
const templateMeta = { name: 'web', namespace: 'default', labels: { app: 'web' }, annotations: { note: 'x' } };

const VALID: Record<string, object> = {
  PriorityClass: { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 100, globalDefault: false, preemptionPolicy: 'Never', description: 'd' },
  Cluster: {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name: 'member1', labels: { region: 'eu' } },
    spec: {
      taints: [{ key: 'gpu', value: 'true', effect: 'NoSchedule' }],
      provider: 'aws',
      region: 'eu',
      zones: ['eu-1a'],
      syncMode: 'Push',
      id: 'a1b2',
      apiEndpoint: 'https://172.18.0.3:6443',
      secretRef: { namespace: 'karmada-cluster', name: 'member1' },
      impersonatorSecretRef: { namespace: 'karmada-cluster', name: 'member1-impersonator' },
      insecureSkipTLSVerification: false,
      proxyURL: 'socks5://proxy:1080',
      proxyHeader: { 'Proxy-Authorization': 'Basic eA==' },
      // One grade: the rules between grades are the server's alone (OpenAPI cannot state them).
      resourceModels: [{ grade: 0, ranges: [{ name: 'cpu', min: '0', max: '9223372036854775807' }, { name: 'memory', min: 0, max: '1Ei' }] }],
    },
    status: {
      conditions: [{ type: 'Ready', status: 'True', reason: 'ClusterReady' }],
      resourceSummary: { allocatable: { cpu: '8', memory: '32Gi', pods: 110 }, allocatableModelings: [{ grade: 0, count: 1 }] },
      nodeSummary: { totalNum: 3, readyNum: 3 },
      apiEnablements: [{ groupVersion: 'apps/v1', resources: [{ name: 'deployments', kind: 'Deployment' }] }],
    },
  },
  PropagationPolicy: {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name: 'p', namespace: 'default' },
    spec: {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
      priority: 5,
      preemption: 'Always',
      schedulePriority: { priorityClassSource: 'KubePriorityClass', priorityClassName: 'high' },
      preemptibility: 'non-preemptible',
      suspension: { scheduling: false, dispatchingOnClusters: { clusterNames: ['member2'] } },
      propagateDeps: true,
      association: false,
      conflictResolution: 'Overwrite',
      preserveResourcesOnDeletion: true,
      dependentOverrides: ['web-override'],
      activationPreference: 'Lazy',
      failover: {
        application: { decisionConditions: { tolerationSeconds: 60 }, purgeMode: 'Gracefully', gracePeriodSeconds: 120, statePreservation: { rules: [{ aliasLabelName: 'x', jsonPath: '{.replicas}' }] } },
        cluster: { purgeMode: 'Directly' },
      },
      placement: {
        workloadAffinity: { affinity: { groupByLabelKey: 'app.group' }, antiAffinity: { groupByLabelKey: 'app.tier' } },
        clusterAffinities: [
          { affinityName: 'primary', clusterNames: ['member1'], overflowAffinities: [{ affinityName: 'burst', clusterNames: ['member3'] }] },
          { affinityName: 'backup', labelSelector: { matchLabels: { region: 'eu' } }, fieldSelector: { matchExpressions: [{ key: 'provider', operator: 'In', values: ['aws'] }] } },
        ],
        clusterTolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }],
        spreadConstraints: [{ spreadByField: 'region', minGroups: 1, maxGroups: 2 }, { spreadByField: 'cluster', minGroups: 2, maxGroups: 3 }],
        replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted', weightPreference: { dynamicWeight: 'AvailableReplicas' } },
      },
    },
  },
  ClusterPropagationPolicy: {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'ClusterPropagationPolicy',
    metadata: { name: 'cp' },
    spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] } }], priority: 1 },
  },
  ResourceBinding: {
    apiVersion: 'work.karmada.io/v1alpha2',
    kind: 'ResourceBinding',
    metadata: { name: 'web-deployment', namespace: 'default', labels: { 'propagationpolicy.karmada.io/name': 'p' } },
    spec: {
      resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' },
      replicas: 2,
      replicaRequirements: { resourceRequest: { cpu: '500m' } },
      placement: { clusterAffinity: { fieldSelector: { matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['eu-1b'] }] } }, spreadConstraints: [{ spreadByLabel: 'net', maxGroups: 2 }] },
      schedulePriority: { priority: 5, preemptionPolicy: 'PreemptLowerPriority' },
      preemptibility: 'preemptible',
      clusters: [{ name: 'member1', replicas: 2, components: [{ name: 'main', replicas: 2 }] }],
      propagateDeps: true,
      failover: { cluster: { purgeMode: 'Gracefully' } },
      conflictResolution: 'Abort',
      preserveResourcesOnDeletion: false,
      suspension: { dispatching: true },
      components: [{ name: 'main', replicas: 2, replicaRequirements: { resourceRequest: { cpu: '500m' } } }],
      requiredBy: [{ namespace: 'default', name: 'other-deployment', clusters: [{ name: 'member1', replicas: 1 }] }],
      workloadAffinityGroups: { affinityGroup: 'app.group=web' },
      gracefulEvictionTasks: [{ fromCluster: 'member2', reason: 'TaintUntolerated', producer: 'TaintManager', suppressDeletion: false, preservedLabelState: { a: 'b' }, clustersBeforeFailover: ['member2'] }],
    },
    status: {
      conditions: [{ type: 'Scheduled', status: 'True', reason: 'Success', message: 'placed' }],
      schedulerObservedGeneration: 1,
      aggregatedStatus: [{ clusterName: 'member1', status: { readyReplicas: 2 }, applied: true, health: 'Healthy' }],
    },
  },
  Event: {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'web.1', namespace: 'default' },
    involvedObject: { apiVersion: 'work.karmada.io/v1alpha2', kind: 'ResourceBinding', namespace: 'default', name: 'web-deployment' },
    type: 'Normal',
    reason: 'Preempted',
    message: 'm',
    count: 1,
    source: { component: 'outrank-scheduler' },
  },
  Deployment: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: templateMeta, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, strategy: { type: 'Recreate' }, template: pod } },
  StatefulSet: { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: templateMeta, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, serviceName: 'web', template: pod } },
  ReplicaSet: { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: templateMeta, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: pod } },
  Job: { apiVersion: 'batch/v1', kind: 'Job', metadata: templateMeta, spec: { parallelism: 2, completions: 4, backoffLimit: 1, template: pod } },
};

VALID.ClusterResourceBinding = { ...VALID.ResourceBinding!, kind: 'ClusterResourceBinding', metadata: { name: 'web-deployment' } };
for (const [kind, object] of Object.entries(BUNDLE_OBJECTS)) VALID[kind] = object();

type Path = ReadonlyArray<string | number>;

/** Every node of `value` with its path: the objects (where a field can be added) and every child (which can be replaced or removed). */
function nodesOf(value: unknown, path: Path = []): Array<{ path: Path; value: unknown }> {
  const here = [{ path, value }];
  if (Array.isArray(value)) return [...here, ...value.flatMap((child, index) => nodesOf(child, [...path, index]))];
  if (typeof value === 'object' && value !== null) return [...here, ...Object.entries(value).flatMap(([key, child]) => nodesOf(child, [...path, key]))];
  return here;
}

type Mutation = { type: 'add'; path: Path } | { type: 'retype'; path: Path; value: unknown } | { type: 'remove'; path: Path };

function mutated(object: object, mutation: Mutation): unknown {
  const copy = structuredClone(object) as Record<string | number, unknown>;
  const parent = mutation.path.slice(0, mutation.type === 'add' ? undefined : -1).reduce<any>((node, key) => node[key], copy);
  const key = mutation.path[mutation.path.length - 1]!;
  if (mutation.type === 'add') parent.unknownField = 'x';
  else if (mutation.type === 'retype') parent[key] = mutation.value;
  else if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else delete parent[key];
  return copy;
}

function mutationOf(object: object): fc.Arbitrary<Mutation> {
  const nodes = nodesOf(object);
  const objects = nodes.filter((node) => typeof node.value === 'object' && node.value !== null && !Array.isArray(node.value)).map((node) => node.path);
  const children = nodes.filter((node) => node.path.length > 0).map((node) => node.path);
  return fc.oneof(
    fc.constantFrom(...objects).map((path): Mutation => ({ type: 'add', path })),
    fc.tuple(fc.constantFrom(...children), fc.constantFrom<unknown>(true, 1.5, null, [], {})).map(([path, value]): Mutation => ({ type: 'retype', path, value })),
    fc.constantFrom(...children).map((path): Mutation => ({ type: 'remove', path })),
  );
}

const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false });

describe('OpenAPI schemas against the zod schemas that validate', () => {
  const kinds = SERVED_RESOURCES.filter((resource) => VALID[resource.info.kind] && schemaOf(resource.info.apiVersion, resource.info.kind));

  it('covers every kind that has a schema', () => {
    const withSchema = SERVED_RESOURCES.filter((resource) => schemaOf(resource.info.apiVersion, resource.info.kind)).map((resource) => resource.info.kind);
    expect(kinds.map((resource) => resource.info.kind).sort()).toEqual(withSchema.sort());
  });

  it.each(kinds.map((resource) => [resource.info.kind, resource] as const))('%s: both accept the valid object, and agree on every change to it', (kind, resource) => {
    const document = JSON.parse(groupVersionDocument(ServedResources.BUILT_IN, resource.group, resource.version)!);
    const validate = ajv.compile(document.components.schemas[schemaName(resource)]);
    const zod = schemaOf(resource.info.apiVersion, kind)!;
    const valid = VALID[kind]!;
    expect(zod.safeParse(valid).success).toBe(true);
    expect(validate(valid)).toBe(true);
    fc.assert(
      fc.property(mutationOf(valid), (mutation) => {
        const object = mutated(valid, mutation);
        const server = zod.safeParse(object).success;
        const client = validate(object) === true;
        // apps/v1's "selector matches the template's labels" joins two fields, which a schema cannot say (in
        // kube-apiserver it is validation code too): a label added to the selector is refused by the server alone.
        const selectorLabel = mutation.path.join('.') === 'spec.selector.matchLabels';
        const exact = (mutation.type === 'add' && !selectorLabel) || (mutation.type === 'retype' && (typeof mutation.value !== 'object' || mutation.value === null));
        return exact ? server === client : !server || client;
      }),
      { numRuns: 300 },
    );
  });
});
