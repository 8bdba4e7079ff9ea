/**
 * The fields of Karmada's PropagationSpec that outrank keeps without acting on them (failover,
 * suspension of dispatching, overflow affinities, workload affinity, cluster tolerations' operators,
 * propagateDeps), validated as Karmada validates them. Cases ported from Karmada's
 * pkg/util/validation/validation_test.go, each named by its test function and case; the rules run after
 * the defaults Karmada's API server writes first (its CRD defaults and pkg/util/helper/policy.go), since
 * outrank stores the object as written and applies those defaults where it reads them.
 */
import { describe, expect, it } from 'vitest';
import { placementSchema, propagationPolicySchema, clusterPropagationPolicySchema, tolerationSchema } from '../../../lib/api/propagation-policy';
import { failoverSchema } from '../../../lib/api/failover';

const VALIDATION = 'pkg/util/validation/validation_test.go';

type Issue = { path: PropertyKey[]; message: string };

function issuesOf(result: { error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } }): Issue[] {
  return (result.error?.issues ?? []).map((issue) => ({ path: [...issue.path], message: issue.message }));
}

const pods = [{ apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'p' }];

function policy(spec: Record<string, unknown>) {
  return issuesOf(
    propagationPolicySchema.safeParse({ apiVersion: 'policy.karmada.io/v1alpha1', kind: 'PropagationPolicy', metadata: { name: 'p', namespace: 'default' }, spec: { resourceSelectors: pods, ...spec } }),
  );
}

describe(`suspension (${VALIDATION}, TestValidatePropagationSpec)`, () => {
  it.each<[string, Record<string, unknown>, Issue[]]>([
    [
      'suspension dispatching cannot co-exist with dispatchingOnClusters',
      { dispatching: true, dispatchingOnClusters: { clusterNames: ['cluster-name'] } },
      [{ path: ['spec', 'suspension'], message: 'suspension dispatching cannot co-exist with dispatchingOnClusters.clusterNames' }],
    ],
    ['suspension dispatching with nil dispatchingOnClusters is valid', { dispatching: true }, []],
    ['suspension dispatching with empty dispatching clusters is valid', { dispatching: true, dispatchingOnClusters: { clusterNames: [] } }, []],
    ['dispatchingOnClusters.clusterNames without dispatching is valid', { dispatchingOnClusters: { clusterNames: ['cluster-name'] } }, []],
    ['dispatchingOnClusters.clusterNames with dispatching false is valid', { dispatching: false, dispatchingOnClusters: { clusterNames: ['cluster-name'] } }, []],
  ])("'%s'", (_, suspension, expected) => {
    expect(policy({ suspension })).toEqual(expected);
  });

  it('scheduling suspension (003) sits beside the dispatching fields', () => {
    expect(policy({ suspension: { scheduling: true, dispatchingOnClusters: { clusterNames: ['m1'] } } })).toEqual([]);
  });
});

describe(`workloadAffinity (${VALIDATION}, TestValidatePropagationSpec and TestValidateWorkloadAffinity)`, () => {
  it.each<[string, Record<string, unknown>, Issue[]]>([
    [
      'workloadAffinity affinity and antiAffinity with same groupByLabelKey',
      { affinity: { groupByLabelKey: 'app.group' }, antiAffinity: { groupByLabelKey: 'app.group' } },
      [{ path: ['spec', 'placement', 'workloadAffinity'], message: 'affinity and antiAffinity must not use the same groupByLabelKey' }],
    ],
    ['workloadAffinity affinity and antiAffinity with different groupByLabelKey is valid', { affinity: { groupByLabelKey: 'app.group' }, antiAffinity: { groupByLabelKey: 'app.region' } }, []],
    ['workloadAffinity with only affinity is valid', { affinity: { groupByLabelKey: 'app.group' } }, []],
    ['workloadAffinity with only antiAffinity is valid', { antiAffinity: { groupByLabelKey: 'app.group' } }, []],
    [
      'workloadAffinity affinity with invalid groupByLabelKey',
      { affinity: { groupByLabelKey: 'INVALID KEY!' } },
      [{ path: ['spec', 'placement', 'workloadAffinity', 'affinity', 'groupByLabelKey'], message: expect.stringContaining('qualified name') }],
    ],
    [
      'workloadAffinity antiAffinity with invalid groupByLabelKey',
      { antiAffinity: { groupByLabelKey: 'INVALID KEY!' } },
      [{ path: ['spec', 'placement', 'workloadAffinity', 'antiAffinity', 'groupByLabelKey'], message: expect.stringContaining('qualified name') }],
    ],
  ])("'%s'", (_, workloadAffinity, expected) => {
    expect(policy({ placement: { workloadAffinity } })).toEqual(expected);
  });

  it("TestValidateWorkloadAffinity, 'nil workloadAffinity is valid'", () => {
    expect(policy({ placement: {} })).toEqual([]);
  });
});

describe(`clusterTolerations (${VALIDATION}, TestValidateClusterTolerations)`, () => {
  const unsupported = (operator: string) => `Unsupported value: "${operator}": supported values: "", "Exists", "Equal"`;
  it.each<[string, Record<string, unknown>[], Issue[]]>([
    ['toleration with Exists operator is valid', [{ key: 'key1', operator: 'Exists' }], []],
    ['toleration with Equal operator is valid', [{ key: 'key1', operator: 'Equal', value: 'value1' }], []],
    ['toleration with empty operator is valid (defaults to Equal)', [{ key: 'key1', value: 'value1' }], []],
    ['toleration with Lt operator is invalid', [{ key: 'key1', operator: 'Lt', value: '100' }], [{ path: ['clusterTolerations', 0, 'operator'], message: unsupported('Lt') }]],
    ['toleration with Gt operator is invalid', [{ key: 'key1', operator: 'Gt', value: '100' }], [{ path: ['clusterTolerations', 0, 'operator'], message: unsupported('Gt') }]],
    [
      'mixed tolerations with one invalid Lt operator',
      [{ key: 'key1', operator: 'Equal', value: 'value1' }, { key: 'key2', operator: 'Lt', value: '100' }],
      [{ path: ['clusterTolerations', 1, 'operator'], message: unsupported('Lt') }],
    ],
  ])("'%s'", (_, clusterTolerations, expected) => {
    expect(issuesOf(placementSchema.safeParse({ clusterTolerations }))).toEqual(expected);
  });

  it("'nil tolerations is valid', and an operator written as \"\" is Equal", () => {
    expect(placementSchema.safeParse({}).success).toBe(true);
    expect(tolerationSchema.safeParse({ key: 'key1', operator: '', value: 'value1' }).success).toBe(true);
  });
});

describe(`overflowAffinities (${VALIDATION}, TestValidatePlacement)`, () => {
  const primary = (overflow = true) => ({
    affinityName: 'primary',
    clusterNames: ['member1'],
    ...(overflow ? { overflowAffinities: [{ affinityName: 'overflow-1', clusterNames: ['member2'] }] } : {}),
  });
  const notAllowed = (index: number): Issue => ({
    path: ['clusterAffinities', index, 'overflowAffinities'],
    message: 'overflowAffinities can only be used together with dynamic weight or aggregated scheduling',
  });

  it.each<[string, Record<string, unknown>, Issue[]]>([
    [
      'clusterAffinity and clusterAffinities cannot co-exist',
      { clusterAffinity: { clusterNames: ['member1'] }, clusterAffinities: [{ affinityName: 'group1' }] },
      [{ path: ['clusterAffinities'], message: 'must not be set together with clusterAffinity' }],
    ],
    ['overflowAffinities rejected when replicaScheduling is nil', { clusterAffinities: [primary()] }, [notAllowed(0)]],
    [
      'overflowAffinities rejected with static weight scheduling',
      {
        clusterAffinities: [primary()],
        replicaScheduling: {
          replicaSchedulingType: 'Divided',
          replicaDivisionPreference: 'Weighted',
          weightPreference: { staticWeightList: [{ targetCluster: { clusterNames: ['member1'] }, weight: 1 }] },
        },
      },
      [notAllowed(0)],
    ],
    [
      'overflowAffinities allowed with dynamic weight scheduling',
      {
        clusterAffinities: [primary()],
        replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted', weightPreference: { dynamicWeight: 'AvailableReplicas' } },
      },
      [],
    ],
    ['overflowAffinities allowed with aggregated scheduling', { clusterAffinities: [primary()], replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' } }, []],
    [
      'multiple affinities, only one has overflow rejected',
      {
        clusterAffinities: [
          { affinityName: 'group1', clusterNames: ['member1'] },
          { affinityName: 'group2', clusterNames: ['member2'], overflowAffinities: [{ affinityName: 'overflow-1', clusterNames: ['member3'] }] },
        ],
      },
      [notAllowed(1)],
    ],
    ['no overflow affinities with unsupported scheduling, no error', { clusterAffinities: [primary(false)] }, []],
  ])("'%s'", (_, placement, expected) => {
    expect(issuesOf(placementSchema.safeParse(placement))).toEqual(expected);
  });

  it("after Karmada's CRD default, a replicaScheduling without type is Divided: Aggregated allows overflow", () => {
    expect(placementSchema.safeParse({ clusterAffinities: [primary()], replicaScheduling: { replicaDivisionPreference: 'Aggregated' } }).success).toBe(true);
  });
});

describe(`overflowAffinities of one term (${VALIDATION}, TestValidateOverflowAffinities)`, () => {
  const aggregated = { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' };
  const duplicate: Issue = {
    path: ['clusterAffinities', 0, 'overflowAffinities', 1, 'affinityName'],
    message: "overflow affinity name must be unique and must not duplicate the primary group's affinityName",
  };
  const noInline: Issue = { path: ['clusterAffinities', 0, 'overflowAffinities'], message: 'overflowAffinities can only be used together with the inline ClusterAffinity' };
  const overflow = (name: string, cluster: string) => ({ affinityName: name, clusterNames: [cluster] });

  it.each<[string, Record<string, unknown>, Issue[]]>([
    ['no overflow affinities, no error', { affinityName: 'primary', clusterNames: ['member1'] }, []],
    ['valid overflow affinities', { affinityName: 'primary', clusterNames: ['member1'], overflowAffinities: [overflow('overflow-1', 'member2'), overflow('overflow-2', 'member3')] }, []],
    ['overflow affinities without ClusterAffinity', { affinityName: 'primary', overflowAffinities: [overflow('overflow-1', 'member2')] }, [noInline]],
    ['duplicate overflow affinity names', { affinityName: 'primary', clusterNames: ['member1'], overflowAffinities: [overflow('overflow-1', 'member2'), overflow('overflow-1', 'member3')] }, [duplicate]],
    [
      "overflow affinity name duplicates primary group's affinityName",
      { affinityName: 'primary', clusterNames: ['member1'], overflowAffinities: [overflow('primary', 'member2')] },
      [{ ...duplicate, path: ['clusterAffinities', 0, 'overflowAffinities', 0, 'affinityName'] }],
    ],
    [
      'multiple errors: empty ClusterAffinity and duplicate names',
      { affinityName: 'primary', overflowAffinities: [overflow('overflow-1', 'member2'), overflow('overflow-1', 'member3')] },
      [noInline, duplicate],
    ],
  ])("'%s'", (_, term, expected) => {
    expect(issuesOf(placementSchema.safeParse({ clusterAffinities: [term], replicaScheduling: aggregated }))).toEqual(expected);
  });

  it("an affinity name is a label key of at most 32 characters (Karmada's CRD), overflow groups' too", () => {
    const long = 'a'.repeat(33);
    expect(issuesOf(placementSchema.safeParse({ clusterAffinities: [{ affinityName: long }] }))).toEqual([
      { path: ['clusterAffinities', 0, 'affinityName'], message: 'must be no more than 32 characters' },
    ]);
    const term = { affinityName: 'primary', clusterNames: ['m1'], overflowAffinities: [{ affinityName: 'not a key', clusterNames: ['m2'] }] };
    expect(issuesOf(placementSchema.safeParse({ clusterAffinities: [term], replicaScheduling: aggregated }))).toEqual([
      { path: ['clusterAffinities', 0, 'overflowAffinities', 0, 'affinityName'], message: expect.stringContaining('qualified name') },
    ]);
  });
});

describe(`failover.application (${VALIDATION}, TestValidateApplicationFailover)`, () => {
  const application = (fields: Record<string, unknown>) => issuesOf(failoverSchema.safeParse({ application: { decisionConditions: { tolerationSeconds: 100 }, ...fields } }));
  const at = (...path: PropertyKey[]) => ['application', ...path];

  it.each<[string, Record<string, unknown>, Issue[]]>([
    ['the tolerationSeconds is less than zero', { decisionConditions: { tolerationSeconds: -100 } }, [{ path: at('decisionConditions', 'tolerationSeconds'), message: 'must be greater than or equal to 0' }]],
    [
      'the gracePeriodSeconds is declared when purgeMode is not gracefully',
      { purgeMode: 'Directly', gracePeriodSeconds: 100 },
      [{ path: at('gracePeriodSeconds'), message: 'only takes effect when purgeMode is gracefully' }],
    ],
    ['the gracePeriodSeconds is less than 0 when purgeMode is gracefully', { purgeMode: 'Gracefully', gracePeriodSeconds: -100 }, [{ path: at('gracePeriodSeconds'), message: 'must be greater than 0' }]],
    ['application behavior is correctly declared', {}, []],
    ['statePreservation is nil', {}, []],
    [
      'statePreservation with valid rules',
      { statePreservation: { rules: [{ aliasLabelName: 'valid-label-name', jsonPath: '{.availableReplicas}' }, { aliasLabelName: 'example.com/state-key', jsonPath: '{.readyReplicas}' }] } },
      [],
    ],
    ['statePreservation with valid prefix in aliasLabelName', { statePreservation: { rules: [{ aliasLabelName: 'example.com/my-state', jsonPath: '{.availableReplicas}' }] } }, []],
  ])("'%s'", (_, fields, expected) => {
    expect(application(fields)).toEqual(expected);
  });

  it.each([
    ['statePreservation with invalid aliasLabelName - starts with dash', ['-invalid-label']],
    ['statePreservation with invalid aliasLabelName - ends with dash', ['invalid-label-']],
    ['statePreservation with invalid aliasLabelName - contains invalid characters', ['invalid@label']],
    ['statePreservation with too long aliasLabelName', ['a'.repeat(64)]],
    ['statePreservation with multiple invalid rules', ['-invalid1', 'invalid2@']],
    ['statePreservation with invalid prefix in aliasLabelName', ['INVALID.COM/my-state']],
  ])("'%s': each rule's aliasLabelName is refused as a label key", (_, names) => {
    const rules = names.map((aliasLabelName) => ({ aliasLabelName, jsonPath: '{.availableReplicas}' }));
    expect(application({ statePreservation: { rules } })).toEqual(
      names.map((_, index) => ({ path: at('statePreservation', 'rules', index, 'aliasLabelName'), message: expect.stringContaining('qualified name') })),
    );
  });

  it(
    "'the gracePeriodSeconds is empty when purgeMode is gracefully': accepted, as through Karmada's API server, whose " +
      'webhook writes gracePeriodSeconds 600 first (pkg/util/helper/policy.go, SetDefaultGracePeriodSeconds); stored as written',
    () => {
      expect(application({ purgeMode: 'Gracefully' })).toEqual([]);
    },
  );

  it("after Karmada's CRD defaults (purgeMode Gracefully, tolerationSeconds 300): no purgeMode takes a grace period, and decisionConditions may be empty", () => {
    expect(application({ gracePeriodSeconds: 30 })).toEqual([]);
    expect(issuesOf(failoverSchema.safeParse({ application: { decisionConditions: {} } }))).toEqual([]);
    expect(issuesOf(failoverSchema.safeParse({ application: { purgeMode: 'Never' } }))[0]?.path).toEqual(['application', 'decisionConditions']);
  });
});

describe(`failover.cluster (${VALIDATION}, TestValidateClusterFailover)`, () => {
  const cluster = (fields: Record<string, unknown>) => issuesOf(failoverSchema.safeParse({ cluster: fields }));

  it.each<[string, Record<string, unknown>, Issue[]]>([
    ['cluster failover with valid statePreservation', { purgeMode: 'Gracefully', statePreservation: { rules: [{ aliasLabelName: 'cluster-state', jsonPath: '{.status.nodeCount}' }] } }, []],
    [
      'cluster failover with invalid statePreservation',
      { purgeMode: 'Directly', statePreservation: { rules: [{ aliasLabelName: '-invalid-cluster-label', jsonPath: '{.status.nodeCount}' }] } },
      [{ path: ['cluster', 'statePreservation', 'rules', 0, 'aliasLabelName'], message: expect.stringContaining('qualified name') }],
    ],
    ['cluster failover without statePreservation', { purgeMode: 'Gracefully' }, []],
  ])("'%s'", (_, fields, expected) => {
    expect(cluster(fields)).toEqual(expected);
  });

  it("'cluster failover is nil', and purgeMode Never is not one of its CRD's values (Directly, Gracefully)", () => {
    expect(failoverSchema.safeParse({}).success).toBe(true);
    expect(cluster({ purgeMode: 'Never' })[0]?.path).toEqual(['cluster', 'purgeMode']);
  });
});

describe("the rule between failover and propagateDeps (pkg/util/validation/validation.go, ValidatePropagationSpec)", () => {
  const failover = { application: { decisionConditions: { tolerationSeconds: 120 } } };

  it.each<[string, Record<string, unknown>, Issue[]]>([
    ['application failover without propagateDeps', { failover }, [{ path: ['spec', 'propagateDeps'], message: 'application failover is set, propagateDeps must be true' }]],
    ['application failover with propagateDeps false', { failover, propagateDeps: false }, [{ path: ['spec', 'propagateDeps'], message: 'application failover is set, propagateDeps must be true' }]],
    ['application failover with propagateDeps', { failover, propagateDeps: true }, []],
    ['cluster failover alone needs no propagateDeps', { failover: { cluster: { purgeMode: 'Directly' } } }, []],
  ])('%s', (_, spec, expected) => {
    expect(policy(spec)).toEqual(expected);
  });

  it('holds for ClusterPropagationPolicy too', () => {
    const result = clusterPropagationPolicySchema.safeParse({
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'ClusterPropagationPolicy',
      metadata: { name: 'c' },
      spec: { resourceSelectors: pods, failover },
    });
    expect(issuesOf(result)).toEqual([{ path: ['spec', 'propagateDeps'], message: 'application failover is set, propagateDeps must be true' }]);
  });
});

describe("the other fields of Karmada's PropagationSpec, with its CRD's values", () => {
  it.each<[string, Record<string, unknown>, boolean]>([
    ['association', { association: true }, true],
    ['dependentOverrides naming OverridePolicies', { dependentOverrides: ['web-override', 'db-override'] }, true],
    ['a dependentOverride that is not an object name', { dependentOverrides: ['Not A Name'] }, false],
    ['activationPreference Lazy', { activationPreference: 'Lazy' }, true],
    ['activationPreference other than Lazy', { activationPreference: 'Eager' }, false],
    ['preserveResourcesOnDeletion', { preserveResourcesOnDeletion: true }, true],
    ['conflictResolution Overwrite', { conflictResolution: 'Overwrite' }, true],
    ['conflictResolution other than Abort or Overwrite', { conflictResolution: 'Merge' }, false],
    ['propagateDeps', { propagateDeps: true }, true],
  ])('%s: valid %s', (_, spec, valid) => {
    expect(policy(spec).length === 0).toBe(valid);
  });
});
