import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../lib/api/decode';
import { Authorizer } from '../../../lib/auth/authorizer';
import type { WriteVerb } from '../../../lib/auth/write-request';
import {
  ADMIN,
  ADMIN_SESSION,
  binding,
  cluster,
  clusterPolicy,
  deployment,
  labelledDeployment,
  lookupOf,
  newPriorityClass,
  nonPreemptiblePolicy,
  podPriorityPolicy,
  policy,
  PRIORITY_CLASSES,
  STRANGER,
  TEAM_A,
  TEAM_A_SESSION,
  TEAM_B,
  TENANCY,
} from './support';

interface Case {
  readonly name: string;
  readonly principal: string;
  readonly verb: WriteVerb;
  readonly resource: string;
  readonly object: KubeObject;
  /** Undefined: allowed; otherwise the whole refusal message. */
  readonly refused?: string;
}

const authorizer = new Authorizer(TENANCY, lookupOf(PRIORITY_CLASSES));

const ALLOWED: Case[] = [
  { name: 'an admin creates a Cluster', principal: ADMIN, verb: 'create', resource: 'clusters', object: cluster() },
  { name: 'an admin creates a PriorityClass', principal: ADMIN, verb: 'create', resource: 'priorityclasses', object: newPriorityClass() },
  { name: 'an admin creates a ClusterPropagationPolicy', principal: ADMIN, verb: 'create', resource: 'clusterpropagationpolicies', object: clusterPolicy() },
  { name: 'an admin gives a tenant namespace a restricted class', principal: ADMIN, verb: 'create', resource: 'propagationpolicies', object: policy('team-b', 'critical') },
  { name: 'an admin names a class that does not exist', principal: ADMIN, verb: 'update', resource: 'propagationpolicies', object: policy('team-a', 'nonexistent') },
  { name: 'an admin through a wildcard (a role session) deletes a Cluster', principal: ADMIN_SESSION, verb: 'delete', resource: 'clusters', object: cluster() },
  { name: 'an admin patches a ClusterResourceBinding', principal: ADMIN, verb: 'patch', resource: 'clusterresourcebindings', object: binding('ClusterResourceBinding') },
  { name: 'a tenant creates a policy without a class in its namespace', principal: TEAM_A, verb: 'create', resource: 'propagationpolicies', object: policy('team-a') },
  { name: 'a tenant creates a policy with an unrestricted class', principal: TEAM_A, verb: 'create', resource: 'propagationpolicies', object: policy('team-a', 'low') },
  { name: 'a tenant uses a class labelled restricted "false"', principal: TEAM_A, verb: 'create', resource: 'propagationpolicies', object: policy('team-a', 'batch') },
  { name: 'a tenant replaces a policy in its second namespace', principal: TEAM_A, verb: 'update', resource: 'propagationpolicies', object: policy('team-a-batch', 'low') },
  { name: 'a tenant patches a policy in its namespace', principal: TEAM_A, verb: 'patch', resource: 'propagationpolicies', object: policy('team-a', 'low') },
  { name: 'a tenant uses a restricted class granted to the namespace by namespacePriorityClasses', principal: TEAM_A, verb: 'create', resource: 'propagationpolicies', object: policy('team-a-batch', 'critical') },
  { name: 'a tenant uses a labelled restricted class granted to the namespace', principal: TEAM_B, verb: 'create', resource: 'propagationpolicies', object: policy('team-b', 'system-high') },
  { name: 'a tenant uses a granted class that does not exist yet', principal: TEAM_B, verb: 'create', resource: 'propagationpolicies', object: policy('team-b', 'reserved') },
  { name: 'a tenant creates a policy reading the pod class', principal: TEAM_A, verb: 'create', resource: 'propagationpolicies', object: podPriorityPolicy('team-a') },
  { name: 'a tenant through a wildcard creates a template with an unrestricted pod class', principal: TEAM_A_SESSION, verb: 'create', resource: 'deployments', object: deployment('team-a', 'low') },
  { name: 'a tenant creates a template with a granted restricted pod class', principal: TEAM_A, verb: 'create', resource: 'deployments', object: deployment('team-a-batch', 'critical') },
  { name: 'a tenant deletes a template in its namespace', principal: TEAM_A, verb: 'delete', resource: 'deployments', object: deployment('team-a') },
  { name: 'a tenant deletes a policy an admin gave a restricted class', principal: TEAM_A, verb: 'delete', resource: 'propagationpolicies', object: policy('team-a', 'critical') },
  { name: 'a tenant patches the suspension of a binding in its namespace', principal: TEAM_A, verb: 'patch', resource: 'resourcebindings', object: binding('ResourceBinding', 'team-a') },
  { name: 'a tenant writes a namespace named like an Object.prototype member', principal: TEAM_B, verb: 'create', resource: 'propagationpolicies', object: policy('constructor', 'low') },
  { name: 'a tenant declares non-preemptible work in a namespace granted it (001)', principal: TEAM_A, verb: 'create', resource: 'propagationpolicies', object: nonPreemptiblePolicy('team-a-batch') },
  { name: 'a tenant labels a template non-preemptible in a namespace granted it (001)', principal: TEAM_A, verb: 'update', resource: 'deployments', object: labelledDeployment('team-a-batch', 'template') },
  { name: 'a tenant labels a pod template preemptible anywhere (001)', principal: TEAM_A, verb: 'create', resource: 'deployments', object: labelledDeployment('team-a', 'pod template', 'preemptible') },
  { name: 'an admin declares non-preemptible work in any namespace (001)', principal: ADMIN, verb: 'create', resource: 'propagationpolicies', object: nonPreemptiblePolicy('team-b') },
  { name: 'a tenant deletes a non-preemptible policy in a namespace not granted it (001)', principal: TEAM_B, verb: 'delete', resource: 'propagationpolicies', object: nonPreemptiblePolicy('team-b') },
];

const REFUSED: Case[] = [
  {
    name: 'a tenant creates a policy in another tenant\'s namespace',
    principal: TEAM_A, verb: 'create', resource: 'propagationpolicies', object: policy('team-b'),
    refused: 'user "arn:aws:iam::1:role/team-a" cannot create propagationpolicies "web" in namespace "team-b": not a namespace of this tenant (team-a, team-a-batch)',
  },
  {
    name: 'a tenant through a wildcard deletes a template in another tenant\'s namespace',
    principal: TEAM_A_SESSION, verb: 'delete', resource: 'deployments', object: deployment('team-b'),
    refused: 'user "arn:aws:sts::1:assumed-role/team-a/ci" cannot delete deployments "web" in namespace "team-b": not a namespace of this tenant (team-a, team-a-batch)',
  },
  {
    name: 'a tenant writes a namespace no tenant owns',
    principal: TEAM_B, verb: 'update', resource: 'deployments', object: deployment('default'),
    refused: 'user "arn:aws:iam::1:role/team-b" cannot update deployments "web" in namespace "default": not a namespace of this tenant (team-b, constructor)',
  },
  {
    name: 'a tenant patches the suspension of a binding in another tenant\'s namespace',
    principal: TEAM_B, verb: 'patch', resource: 'resourcebindings', object: binding('ResourceBinding', 'team-a'),
    refused: 'user "arn:aws:iam::1:role/team-b" cannot patch resourcebindings "web-deployment" in namespace "team-a": not a namespace of this tenant (team-b, constructor)',
  },
  {
    name: 'a principal that only shares a prefix with a tenant\'s exact principal',
    principal: STRANGER, verb: 'create', resource: 'propagationpolicies', object: policy('team-a'),
    refused: 'user "arn:aws:iam::1:role/team-a-impostor" cannot create propagationpolicies "web" in namespace "team-a": the user is neither an admin nor in any tenant',
  },
  {
    name: 'a session of a role whose name extends the wildcard\'s role',
    principal: 'arn:aws:sts::1:assumed-role/team-a-ops/x', verb: 'create', resource: 'deployments', object: deployment('team-a'),
    refused: 'user "arn:aws:sts::1:assumed-role/team-a-ops/x" cannot create deployments "web" in namespace "team-a": the user is neither an admin nor in any tenant',
  },
  {
    name: 'a tenant creates a Cluster',
    principal: TEAM_A, verb: 'create', resource: 'clusters', object: cluster(),
    refused: 'user "arn:aws:iam::1:role/team-a" cannot create clusters "member1" at the cluster scope: only admins write cluster-scoped objects',
  },
  {
    name: 'a tenant creates a PriorityClass',
    principal: TEAM_A, verb: 'create', resource: 'priorityclasses', object: newPriorityClass(),
    refused: 'user "arn:aws:iam::1:role/team-a" cannot create priorityclasses "urgent" at the cluster scope: only admins write cluster-scoped objects',
  },
  {
    name: 'a tenant creates a ClusterPropagationPolicy',
    principal: TEAM_B, verb: 'create', resource: 'clusterpropagationpolicies', object: clusterPolicy(),
    refused: 'user "arn:aws:iam::1:role/team-b" cannot create clusterpropagationpolicies "everywhere" at the cluster scope: only admins write cluster-scoped objects',
  },
  {
    name: 'a tenant deletes a Cluster',
    principal: TEAM_A, verb: 'delete', resource: 'clusters', object: cluster(),
    refused: 'user "arn:aws:iam::1:role/team-a" cannot delete clusters "member1" at the cluster scope: only admins write cluster-scoped objects',
  },
  {
    name: 'a tenant patches the suspension of a ClusterResourceBinding',
    principal: TEAM_A, verb: 'patch', resource: 'clusterresourcebindings', object: binding('ClusterResourceBinding'),
    refused: 'user "arn:aws:iam::1:role/team-a" cannot patch clusterresourcebindings "web-deployment" at the cluster scope: only admins write cluster-scoped objects',
  },
  {
    name: 'a tenant uses a class restricted by the settings',
    principal: TEAM_A, verb: 'create', resource: 'propagationpolicies', object: policy('team-a', 'critical'),
    refused: 'user "arn:aws:iam::1:role/team-a" cannot create propagationpolicies "web" in namespace "team-a": spec.schedulePriority.priorityClassName: PriorityClass "critical" is restricted and not allowed in namespace "team-a"',
  },
  {
    name: 'a tenant uses a class restricted by its label',
    principal: TEAM_A, verb: 'patch', resource: 'propagationpolicies', object: policy('team-a-batch', 'system-high'),
    refused: 'user "arn:aws:iam::1:role/team-a" cannot patch propagationpolicies "web" in namespace "team-a-batch": spec.schedulePriority.priorityClassName: PriorityClass "system-high" is restricted and not allowed in namespace "team-a-batch"',
  },
  {
    name: 'a tenant uses a restricted class granted to another namespace',
    principal: TEAM_B, verb: 'update', resource: 'propagationpolicies', object: policy('team-b', 'critical'),
    refused: 'user "arn:aws:iam::1:role/team-b" cannot update propagationpolicies "web" in namespace "team-b": spec.schedulePriority.priorityClassName: PriorityClass "critical" is restricted and not allowed in namespace "team-b"',
  },
  {
    name: 'a tenant names a class that does not exist',
    principal: TEAM_A, verb: 'create', resource: 'propagationpolicies', object: policy('team-a', 'nonexistent'),
    refused: 'user "arn:aws:iam::1:role/team-a" cannot create propagationpolicies "web" in namespace "team-a": spec.schedulePriority.priorityClassName: PriorityClass "nonexistent" does not exist; a tenant may use only existing PriorityClasses that are not restricted',
  },
  {
    name: 'a tenant gives a template a restricted pod class',
    principal: TEAM_A, verb: 'create', resource: 'deployments', object: deployment('team-a', 'critical'),
    refused: 'user "arn:aws:iam::1:role/team-a" cannot create deployments "web" in namespace "team-a": spec.template.spec.priorityClassName: PriorityClass "critical" is restricted and not allowed in namespace "team-a"',
  },
  {
    name: 'a tenant gives a template a labelled restricted pod class',
    principal: TEAM_A_SESSION, verb: 'update', resource: 'deployments', object: deployment('team-a', 'system-high'),
    refused: 'user "arn:aws:sts::1:assumed-role/team-a/ci" cannot update deployments "web" in namespace "team-a": spec.template.spec.priorityClassName: PriorityClass "system-high" is restricted and not allowed in namespace "team-a"',
  },
  {
    name: 'a tenant uses a restricted class in a namespace named like an Object.prototype member',
    principal: TEAM_B, verb: 'create', resource: 'propagationpolicies', object: policy('constructor', 'critical'),
    refused: 'user "arn:aws:iam::1:role/team-b" cannot create propagationpolicies "web" in namespace "constructor": spec.schedulePriority.priorityClassName: PriorityClass "critical" is restricted and not allowed in namespace "constructor"',
  },
  {
    name: 'a tenant declares its policy\'s work non-preemptible in a namespace not granted it (001)',
    principal: TEAM_A, verb: 'create', resource: 'propagationpolicies', object: nonPreemptiblePolicy('team-a'),
    refused: 'user "arn:aws:iam::1:role/team-a" cannot create propagationpolicies "web" in namespace "team-a": spec.preemptibility: work in namespace "team-a" may not be declared non-preemptible (tenancy nonPreemptibleNamespaces)',
  },
  {
    name: 'a tenant labels a template non-preemptible in a namespace not granted it (001)',
    principal: TEAM_B, verb: 'patch', resource: 'deployments', object: labelledDeployment('team-b', 'template'),
    refused: 'user "arn:aws:iam::1:role/team-b" cannot patch deployments "web" in namespace "team-b": metadata.labels["kai.scheduler/preemptibility"]: work in namespace "team-b" may not be declared non-preemptible (tenancy nonPreemptibleNamespaces)',
  },
  {
    name: 'a tenant labels a pod template non-preemptible in a namespace not granted it (001)',
    principal: TEAM_A_SESSION, verb: 'update', resource: 'deployments', object: labelledDeployment('team-a', 'pod template'),
    refused: 'user "arn:aws:sts::1:assumed-role/team-a/ci" cannot update deployments "web" in namespace "team-a": spec.template.metadata.labels["kai.scheduler/preemptibility"]: work in namespace "team-a" may not be declared non-preemptible (tenancy nonPreemptibleNamespaces)',
  },
];

describe('Authorizer: writes under the tenancy model', () => {
  it.each(ALLOWED)('allows: $name', async ({ principal, verb, resource, object }) => {
    expect(await authorizer.decide(principal, { verb, resource, object })).toEqual({ allowed: true });
  });

  it.each(REFUSED)('refuses: $name', async ({ principal, verb, resource, object, refused }) => {
    expect(await authorizer.decide(principal, { verb, resource, object })).toEqual({ allowed: false, message: refused });
  });

  it('gives a principal in several tenants the namespaces of all of them', async () => {
    const both = new Authorizer(
      { ...TENANCY, tenants: [...TENANCY.tenants, { principals: [TEAM_A], namespaces: ['shared'] }] },
      lookupOf(PRIORITY_CLASSES),
    );
    for (const namespace of ['team-a', 'shared']) {
      expect(await both.decide(TEAM_A, { verb: 'create', resource: 'propagationpolicies', object: policy(namespace) })).toEqual({ allowed: true });
    }
  });

  it('makes everyone an admin with the wildcard "*"', async () => {
    const open = new Authorizer({ admins: ['*'], tenants: [] }, lookupOf([]));
    expect(await open.decide('anyone', { verb: 'create', resource: 'clusters', object: cluster() })).toEqual({ allowed: true });
  });

  it('does not look classes up for admins, nor for deletes', async () => {
    const asked: string[] = [];
    const counting = new Authorizer(TENANCY, async (name) => {
      asked.push(name);
      return undefined;
    });
    await counting.decide(ADMIN, { verb: 'create', resource: 'propagationpolicies', object: policy('team-a', 'critical') });
    await counting.decide(TEAM_A, { verb: 'delete', resource: 'propagationpolicies', object: policy('team-a', 'critical') });
    expect(asked).toEqual([]);
  });
});
