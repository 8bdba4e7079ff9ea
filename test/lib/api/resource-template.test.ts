import { describe, expect, it } from 'vitest';
import {
  apiGroupOf,
  resourceTemplateSchema,
  templatePodLabels,
  templatePodSpec,
  templateReplicas,
  type WorkloadTemplate,
} from '../../../lib/api/resource-template';

function template(kind: string, spec: Record<string, unknown>, apiVersion = 'apps/v1'): WorkloadTemplate {
  return resourceTemplateSchema.parse({ apiVersion, kind, metadata: { name: 'w', namespace: 'default' }, spec });
}

const pod = { metadata: { labels: { app: 'w' } }, spec: { containers: [{ name: 'c' }] } };

describe('templateReplicas (issue 2, "Objects")', () => {
  it.each([
    ['Deployment replicas', 'apps/v1', 'Deployment', { replicas: 3, template: pod }, 3],
    ['Deployment without replicas defaults to 1', 'apps/v1', 'Deployment', { template: pod }, 1],
    ['StatefulSet with 0 replicas', 'apps/v1', 'StatefulSet', { replicas: 0, template: pod }, 0],
    ['Job reads parallelism, not replicas', 'batch/v1', 'Job', { parallelism: 4, replicas: 9, template: pod }, 4],
    ['Job without parallelism defaults to 1', 'batch/v1', 'Job', { template: pod }, 1],
    ['another kind reads replicas', 'example.com/v1', 'Widget', { replicas: 5, template: pod }, 5],
  ])('%s', (_, apiVersion, kind, spec, expected) => {
    expect(templateReplicas(template(kind, spec, apiVersion))).toBe(expected);
  });
});

describe('pod template accessors', () => {
  it('returns the pod spec and the pod labels', () => {
    const object = template('Deployment', { template: pod });
    expect(templatePodSpec(object)).toEqual({ containers: [{ name: 'c' }] });
    expect(templatePodLabels(object)).toEqual({ app: 'w' });
  });

  it('returns empty values when the pod template has no spec or labels (a template stored before containers were required)', () => {
    const object = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'w', namespace: 'default' }, spec: { template: {} } } as WorkloadTemplate;
    expect(templatePodSpec(object)).toEqual({});
    expect(templatePodLabels(object)).toEqual({});
  });
});

describe('pod template containers', () => {
  it.each([
    ['no pod spec', { template: {} }],
    ['no containers', { template: { spec: {} } }],
    ['an empty list of containers', { template: { spec: { containers: [] } } }],
    ['only init containers', { template: { spec: { initContainers: [{ name: 'init' }] } } }],
  ])('refuses a pod template with %s, naming the field', (_, spec) => {
    const result = resourceTemplateSchema.safeParse({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'w' }, spec });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ['spec', 'template', 'spec', 'containers'], message: 'is required: a pod template must have at least one container' }),
    ]);
  });
});

describe('apiGroupOf', () => {
  it.each([
    ['apps/v1', 'apps'],
    ['v1', ''],
    ['policy.karmada.io/v1alpha1', 'policy.karmada.io'],
  ])('%s → %j', (apiVersion, group) => {
    expect(apiGroupOf(apiVersion)).toBe(group);
  });
});

describe('resource template schema', () => {
  it('keeps fields that scheduling does not read', () => {
    const object = template('Deployment', { replicas: 1, strategy: { type: 'Recreate' }, template: { ...pod, spec: { ...pod.spec, nodeSelector: { a: 'b' } } } });
    expect(object.spec.strategy).toEqual({ type: 'Recreate' });
    expect(templatePodSpec(object).nodeSelector).toEqual({ a: 'b' });
  });

  it.each([
    ['a missing pod template', 'Deployment', { replicas: 1 }, ['spec', 'template']],
    ['negative replicas', 'Deployment', { replicas: -1, template: pod }, ['spec', 'replicas']],
    ['replicas beyond int32', 'Deployment', { replicas: 2 ** 31, template: pod }, ['spec', 'replicas']],
    ['an unknown kind without replicas', 'Widget', { template: pod }, ['spec', 'replicas']],
    ['a negative request', 'Deployment', { template: { spec: { containers: [{ resources: { requests: { cpu: '-1' } } }] } } }, ['spec', 'template', 'spec', 'containers', 0, 'resources', 'requests', 'cpu']],
    ['an invalid limit', 'Deployment', { template: { spec: { containers: [{ resources: { limits: { memory: '1Zi' } } }] } } }, ['spec', 'template', 'spec', 'containers', 0, 'resources', 'limits', 'memory']],
    ['an invalid init container request', 'Deployment', { template: { spec: { initContainers: [{ resources: { requests: { cpu: 'x' } } }] } } }, ['spec', 'template', 'spec', 'initContainers', 0, 'resources', 'requests', 'cpu']],
    ['an invalid overhead', 'Deployment', { template: { spec: { overhead: { cpu: '1q' } } } }, ['spec', 'template', 'spec', 'overhead', 'cpu']],
  ])('rejects %s', (_, kind, spec, path) => {
    const result = resourceTemplateSchema.safeParse({ apiVersion: 'apps/v1', kind, metadata: { name: 'w' }, spec });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path)).toContainEqual(path);
  });
});
