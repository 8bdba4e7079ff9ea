/**
 * CustomResourceDefinitions are validated as kube-apiserver validates them, register the kind they
 * define (custom-kinds.ts), and objects of that kind are validated by the schema of their version
 * (structural-schema.ts): types, required fields, enumerations, bounds, patterns, defaults, and unknown
 * fields refused under Strict unless the schema preserves them.
 */
import { describe, expect, it } from 'vitest';
import { CustomKinds } from '../../../lib/api/custom-kinds';
import { customResourceDefinitionSchema, withDefinitionStatus, type CustomResourceDefinition } from '../../../lib/api/custom-resource-definition';
import { decodeObject, decodeObjectWith } from '../../../lib/api/decode';
import { isWorkloadTemplate, type ResourceTemplate } from '../../../lib/api/resource-template';
import { templateUpdateCauses } from '../../../lib/api/template-update-rules';
import { cronTab, cronTabDefinition } from '../../support/bundle-objects';
import { refusalCauses } from '../../support/refusal-causes';

const causesOf = refusalCauses;

const definition = (change: (crd: Record<string, any>) => void = () => {}) => {
  const crd = cronTabDefinition();
  change(crd);
  return crd;
};
const kinds = (...definitions: Record<string, unknown>[]) => new CustomKinds(definitions.map((crd) => customResourceDefinitionSchema.parse(crd) as CustomResourceDefinition));

describe('CustomResourceDefinition', () => {
  it.each<[string, Record<string, unknown>, { field: string; message: string }]>([
    ['a name that is not <plural>.<group>', definition((crd) => (crd.metadata.name = 'crontab.stable.example.com')), { field: 'metadata.name', message: 'must be spec.names.plural+"."+spec.group: "crontabs.stable.example.com"' }],
    ['a group without a dot', definition((crd) => ((crd.spec.group = 'stable'), (crd.metadata.name = 'crontabs.stable'))), { field: 'spec.group', message: 'must be a domain with at least one dot, such as stable.example.com' }],
    ['an uppercase plural', definition((crd) => (crd.spec.names.plural = 'CronTabs')), { field: 'spec.names.plural', message: expect.stringContaining('RFC 1035 label') }],
    ['no scope', definition((crd) => delete crd.spec.scope), { field: 'spec.scope', message: 'must be Namespaced or Cluster' }],
    ['no version', definition((crd) => (crd.spec.versions = [])), { field: 'spec.versions', message: 'must have at least one version' }],
    ['two storage versions', definition((crd) => crd.spec.versions.push({ ...crd.spec.versions[0], name: 'v2' })), { field: 'spec.versions', message: 'must have exactly one version marked as storage version, not 2' }],
    ['a version twice', definition((crd) => crd.spec.versions.push({ ...crd.spec.versions[0], storage: false })), { field: 'spec.versions[1].name', message: 'must be unique: "v1" is an earlier version' }],
    ['a version without a schema', definition((crd) => delete crd.spec.versions[0].schema), { field: 'spec.versions[0].schema.openAPIV3Schema', message: 'is required: schemas are required' }],
    ['a schema that is not an object', definition((crd) => (crd.spec.versions[0].schema.openAPIV3Schema.type = 'string')), { field: 'spec.versions[0].schema.openAPIV3Schema.type', message: 'must be object at the root' }],
    ['listKind the same as kind', definition((crd) => (crd.spec.names.listKind = 'CronTab')), { field: 'spec.names.listKind', message: 'must not be the same as kind' }],
  ])('refuses %s', (_, raw, cause) => {
    expect(causesOf(() => decodeObject(raw))).toContainEqual(cause);
  });

  it('is stamped established, its names accepted and its storage version stored, keeping the times while they hold', () => {
    const crd = customResourceDefinitionSchema.parse(cronTabDefinition()) as CustomResourceDefinition;
    const first = withDefinitionStatus(crd, undefined, '2026-01-01T00:00:00Z');
    expect(first.status).toEqual({
      conditions: [
        expect.objectContaining({ type: 'NamesAccepted', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }),
        expect.objectContaining({ type: 'Established', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }),
      ],
      acceptedNames: { ...crd.spec.names, listKind: 'CronTabList' },
      storedVersions: ['v1'],
    });
    expect(withDefinitionStatus(crd, first, '2026-02-01T00:00:00Z').status?.conditions?.[1]?.lastTransitionTime).toBe('2026-01-01T00:00:00Z');
  });

  it('keeps its scope: a change is refused, as kube-apiserver refuses it', () => {
    const namespaced = decodeObject(cronTabDefinition()) as unknown as Record<string, unknown> & { apiVersion: string; kind: string };
    const clustered = decodeObject(cronTabDefinition('Cluster')) as unknown as Record<string, unknown> & { apiVersion: string; kind: string };
    expect(templateUpdateCauses(clustered, namespaced)).toEqual([{ field: 'spec.scope', message: 'is immutable' }]);
  });
});

describe('the kinds CustomResourceDefinitions register', () => {
  it('serves a definition\'s kind at its served versions, storage first, and not one whose names outrank or an earlier definition takes', () => {
    const twoVersions = definition((crd) => crd.spec.versions.push({ ...crd.spec.versions[0], name: 'v1beta1', storage: false }, { ...crd.spec.versions[0], name: 'v1alpha1', storage: false, served: false }));
    const karmadaOwn = definition((crd) => {
      crd.spec.group = 'policy.karmada.io';
      crd.spec.names = { plural: 'propagationpolicies', kind: 'PropagationPolicy' };
      crd.metadata.name = 'propagationpolicies.policy.karmada.io';
    });
    const sameKind = definition((crd) => ((crd.spec.names.plural = 'crontabz'), (crd.metadata.name = 'crontabz.stable.example.com')));
    const custom = kinds(twoVersions, karmadaOwn, sameKind);
    expect(custom.all().map((kind) => [kind.group, kind.kind, kind.plural, kind.versions.map((v) => v.name)])).toEqual([['stable.example.com', 'CronTab', 'crontabs', ['v1', 'v1beta1']]]);
    expect(custom.byPlural('stable.example.com', 'v1beta1', 'crontabs')?.info).toEqual({ apiVersion: 'stable.example.com/v1beta1', kind: 'CronTab', plural: 'crontabs', namespaced: true });
    expect(custom.byPlural('stable.example.com', 'v1alpha1', 'crontabs')).toBeUndefined();
  });
});

describe('custom resources', () => {
  const custom = kinds(cronTabDefinition());

  it('are validated by the schema of their version, defaults applied, and are plain templates', () => {
    const object = decodeObjectWith(cronTab('nightly', null), 'Strict', custom).object as ResourceTemplate & { spec: Record<string, unknown> };
    expect(object.metadata.namespace).toBe('default');
    expect(object.spec).toEqual({ cronSpec: '*/5 * * * *', image: 'cron:1', replicas: 2, mode: 'Slow' });
    expect(isWorkloadTemplate(object)).toBe(false);
  });

  it.each<[string, Record<string, unknown>, { field: string; message: string }]>([
    ['a missing required field', { image: 'cron:1' }, { field: 'spec.cronSpec', message: expect.any(String) }],
    ['a string where an integer goes', { cronSpec: '* * * * *', replicas: 'two' }, { field: 'spec.replicas', message: expect.any(String) }],
    ['a value below the minimum', { cronSpec: '* * * * *', replicas: 0 }, { field: 'spec.replicas', message: 'must be at least 1' }],
    ['a value not enumerated', { cronSpec: '* * * * *', mode: 'Medium' }, { field: 'spec.mode', message: 'must be one of "Fast", "Slow"' }],
    ['a value not matching the pattern', { cronSpec: 'every minute' }, { field: 'spec.cronSpec', message: expect.stringContaining('must match') }],
    ['a field the schema does not have', { cronSpec: '* * * * *', imagee: 'x' }, { field: 'spec.imagee', message: 'unknown field' }],
  ])('refuse %s, naming the field', (_, spec, cause) => {
    expect(causesOf(() => decodeObjectWith(cronTab('bad', 'default', spec), 'Strict', custom))).toContainEqual(cause);
  });

  it('keep what the schema preserves, and drop an unknown field under Ignore', () => {
    const object = decodeObjectWith({ ...cronTab('c'), status: { anything: { goes: 1 } }, spec: { cronSpec: '* * * * *', extra: true } }, 'Ignore', custom);
    expect(object.unknownFields).toEqual(['spec.extra']);
    expect((object.object as Record<string, unknown>).status).toEqual({ anything: { goes: 1 } });
  });

  it('refuse a namespace when the kind is cluster-scoped, and a version the definition does not serve', () => {
    const clustered = kinds(cronTabDefinition('Cluster'));
    expect(causesOf(() => decodeObjectWith(cronTab('c', 'default'), 'Strict', clustered))).toEqual([{ field: 'metadata.namespace', message: 'must not be set: CronTab is cluster-scoped' }]);
    expect(decodeObjectWith(cronTab('c', null), 'Strict', clustered).object.metadata.namespace).toBeUndefined();
    expect(causesOf(() => decodeObjectWith({ ...cronTab('c'), apiVersion: 'stable.example.com/v2' }, 'Strict', custom))).toEqual([
      { field: 'apiVersion', message: 'stable.example.com/v2 does not serve CronTab: its CustomResourceDefinition serves v1' },
    ]);
  });

  it('of a kind no definition registers are refused; one with replicas is held to the shape of a workload', () => {
    expect(causesOf(() => decodeObject(cronTab('c', 'default', { cronSpec: '* * * * *' })))).toEqual([
      { field: 'kind', message: 'CronTab is not served in stable.example.com/v1: create the CustomResourceDefinition that defines it first' },
    ]);
    expect(causesOf(() => decodeObject(cronTab('c')))).toEqual([{ field: 'spec.template', message: 'is required: a resource template must carry a pod template' }]);
  });

  it('with replicas and a pod template are workloads, their requests checked as a workload\'s', () => {
    const rollouts = kinds(
      definition((crd) => {
        crd.spec.names = { plural: 'rollouts', kind: 'Rollout' };
        crd.metadata.name = 'rollouts.stable.example.com';
        crd.spec.versions[0].schema.openAPIV3Schema = { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } };
      }),
    );
    const rollout = (cpu: string) => ({
      apiVersion: 'stable.example.com/v1',
      kind: 'Rollout',
      metadata: { name: 'web' },
      spec: { replicas: 3, template: { spec: { containers: [{ name: 'main', resources: { requests: { cpu } } }] } } },
    });
    expect(isWorkloadTemplate(decodeObjectWith(rollout('500m'), 'Strict', rollouts).object as ResourceTemplate)).toBe(true);
    expect(causesOf(() => decodeObjectWith(rollout('lots'), 'Strict', rollouts))).toEqual([{ field: 'spec.template.spec.containers[0].resources.requests.cpu', message: expect.stringContaining('is not a valid quantity') }]);
  });
});
