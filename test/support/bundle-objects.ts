/**
 * Valid objects of the kinds an application bundle carries beside its workloads — the kinds without
 * replicas outrank serves, a CustomResourceDefinition with one of its objects, and Karmada's
 * OverridePolicies — as a Karmada repository writes them. Tests take them whole or change one field.
 */

type Manifest = Record<string, any>;

/** The CustomResourceDefinition of the CronTab kind (Kubernetes' own example), namespaced, with one version. */
export function cronTabDefinition(scope: 'Namespaced' | 'Cluster' = 'Namespaced'): Manifest {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'crontabs.stable.example.com' },
    spec: {
      group: 'stable.example.com',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', shortNames: ['ct'], categories: ['all'] },
      scope,
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  required: ['cronSpec'],
                  properties: {
                    cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
                    image: { type: 'string' },
                    replicas: { type: 'integer', minimum: 1, maximum: 10 },
                    mode: { type: 'string', enum: ['Fast', 'Slow'], default: 'Slow' },
                  },
                },
                status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
              },
            },
          },
          subresources: { status: {} },
          additionalPrinterColumns: [
            { name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' },
            { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
        },
      ],
    },
  };
}

/** A CronTab in `namespace`; null: written without one. */
export function cronTab(name: string, namespace: string | null = 'default', spec: Manifest = { cronSpec: '*/5 * * * *', image: 'cron:1', replicas: 2 }): Manifest {
  return { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name, ...(namespace ? { namespace } : {}) }, spec };
}

/** A valid object of each kind, in `namespace` when the kind is namespaced. */
export const BUNDLE_OBJECTS: Readonly<Record<string, (namespace?: string) => Manifest>> = {
  Service: (namespace = 'default') => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace, labels: { app: 'web' } },
    spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }, { name: 'metrics', port: 9090, targetPort: 'metrics' }] },
  }),
  ConfigMap: (namespace = 'default') => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web-config', namespace, labels: { app: 'web' } }, data: { 'app.properties': 'mode=fast\n', LOG_LEVEL: 'info' } }),
  Secret: (namespace = 'default') => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'web-secret', namespace, labels: { app: 'web' } },
    type: 'Opaque',
    data: { password: Buffer.from('s3cret').toString('base64') },
  }),
  ServiceAccount: (namespace = 'default') => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'web', namespace, labels: { app: 'web' } }, automountServiceAccountToken: false }),
  Namespace: () => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop', labels: { app: 'web' } } }),
  Role: (namespace = 'default') => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name: 'web-reader', namespace },
    rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }],
  }),
  RoleBinding: (namespace = 'default') => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'web-reader', namespace },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'web-reader' },
    subjects: [{ kind: 'ServiceAccount', name: 'web', namespace }],
  }),
  ClusterRole: () => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'system:web-metrics' },
    rules: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }],
  }),
  ClusterRoleBinding: () => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'system:web-metrics' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:web-metrics' },
    subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'monitoring' }],
  }),
  CustomResourceDefinition: () => cronTabDefinition(),
  OverridePolicy: (namespace = 'default') => ({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'OverridePolicy',
    metadata: { name: 'web-images', namespace },
    spec: {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
      overrideRules: [
        {
          targetCluster: { clusterNames: ['member1'] },
          overriders: {
            imageOverrider: [{ component: 'Registry', operator: 'replace', value: 'registry.eu.example.com' }],
            plaintext: [{ path: '/spec/replicas', operator: 'replace', value: 1 }],
            labelsOverrider: [{ operator: 'add', value: { region: 'eu' } }],
          },
        },
      ],
    },
  }),
  ClusterOverridePolicy: () => ({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'ClusterOverridePolicy',
    metadata: { name: 'all-annotated' },
    spec: {
      resourceSelectors: [{ apiVersion: 'v1', kind: 'ConfigMap' }],
      overrideRules: [{ overriders: { annotationsOverrider: [{ operator: 'add', value: { 'example.com/owner': 'platform' } }] } }],
    },
  }),
};
