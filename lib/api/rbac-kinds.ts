import * as z from 'zod';
import { bindingName } from './binding-name';
import { labelSelector, objectName, templateName } from './meta';
import { objectMetaWith } from './workload-shapes';

/**
 * rbac.authorization.k8s.io/v1 Role, ClusterRole, RoleBinding and ClusterRoleBinding, as
 * kube-apiserver validates them (pkg/apis/rbac/validation): rules name their verbs and either
 * resources (with API groups) or non-resource URLs; a binding's roleRef names a Role or ClusterRole
 * of this group and cannot change; subjects are users, groups or service accounts. They are resource
 * templates without replicas, propagated whole to the clusters a policy selects.
 */

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

/**
 * An RBAC object's name: any path segment, as kube-apiserver allows (ValidateRBACName: "system:…"
 * names carry colons), but one Karmada can name a binding after (names.GenerateBindingName turns ":"
 * into "." and lowercases): a name that would give an invalid binding name is refused here, where
 * Karmada would accept it and then fail to make its binding.
 */
function rbacName(kind: string) {
  return templateName.refine(
      (name) => objectName.safeParse(bindingName(name, kind)).success,
      'must be a DNS subdomain once ":" is read as "." and letters as lowercase (a-z, 0-9, "-", "." and ":"), so that its binding can be named after it',
    );
}

const names = z.array(z.string().min(1, 'must not be empty').max(253)).max(1024);

const policyRuleSchema = z.strictObject({
  verbs: z.array(z.string().min(1, 'must not be empty').max(64)).min(1, 'must name at least one verb').max(64),
  apiGroups: z.array(z.string().max(253)).max(256).optional(),
  resources: names.optional(),
  resourceNames: names.optional(),
  nonResourceURLs: names.optional(),
});
type PolicyRule = z.infer<typeof policyRuleSchema>;

/** A rule grants on resources (in API groups) or on non-resource URLs, never both; a Role's only on resources. */
function checkRules(rules: readonly PolicyRule[] | undefined, namespaced: boolean, context: z.RefinementCtx): void {
  (rules ?? []).forEach((rule, index) => {
    const path = ['rules', index];
    const onUrls = (rule.nonResourceURLs ?? []).length > 0;
    const onResources = (rule.resources ?? []).length > 0 || (rule.apiGroups ?? []).length > 0 || (rule.resourceNames ?? []).length > 0;
    if (onUrls && namespaced) context.addIssue({ code: 'custom', path: [...path, 'nonResourceURLs'], message: 'namespaced rules cannot apply to non-resource URLs' });
    else if (onUrls && onResources) context.addIssue({ code: 'custom', path: [...path, 'nonResourceURLs'], message: 'rules cannot apply to both regular resources and non-resource URLs' });
    else if (!onUrls && (rule.apiGroups ?? []).length === 0) context.addIssue({ code: 'custom', path: [...path, 'apiGroups'], message: 'resource rules must supply at least one api group' });
    else if (!onUrls && (rule.resources ?? []).length === 0) context.addIssue({ code: 'custom', path: [...path, 'resources'], message: 'resource rules must supply at least one resource' });
  });
}

const rules = z.array(policyRuleSchema).max(1024).optional().meta({ description: 'What the role grants: verbs on resources of API groups, or on non-resource URLs.' });

export const roleSchema = z
  .strictObject({
    apiVersion: z.literal(`${RBAC_GROUP}/v1`),
    kind: z.literal('Role'),
    metadata: objectMetaWith(rbacName('Role')),
    rules,
  })
  .superRefine((role, context) => checkRules(role.rules, true, context))
  .meta({ description: 'Permissions within a namespace: a resource template without replicas, propagated whole to the clusters its policy selects.' });

export const clusterRoleSchema = z
  .strictObject({
    apiVersion: z.literal(`${RBAC_GROUP}/v1`),
    kind: z.literal('ClusterRole'),
    metadata: objectMetaWith(rbacName('ClusterRole')),
    rules,
    aggregationRule: z.strictObject({ clusterRoleSelectors: z.array(labelSelector).max(64).optional() }).optional(),
  })
  .superRefine((role, context) => checkRules(role.rules, false, context))
  .meta({ description: 'Permissions across namespaces: a cluster-scoped resource template without replicas, propagated whole to the clusters its policy selects.' });

const subjectSchema = z.strictObject({
  kind: z.enum(['User', 'Group', 'ServiceAccount']),
  apiGroup: z.string().max(253).optional(),
  name: z.string().min(1, 'must not be empty').max(253),
  namespace: z.string().max(63).optional(),
});
type Subject = z.infer<typeof subjectSchema>;

function checkSubjects(subjects: readonly Subject[] | undefined, namespaced: boolean, context: z.RefinementCtx): void {
  (subjects ?? []).forEach((subject, index) => {
    const path = ['subjects', index];
    if (subject.kind === 'ServiceAccount') {
      if (subject.apiGroup) context.addIssue({ code: 'custom', path: [...path, 'apiGroup'], message: 'must be empty for a ServiceAccount' });
      if (!namespaced && !subject.namespace) context.addIssue({ code: 'custom', path: [...path, 'namespace'], message: 'is required for a ServiceAccount in a ClusterRoleBinding' });
    } else if (subject.apiGroup !== RBAC_GROUP) {
      context.addIssue({ code: 'custom', path: [...path, 'apiGroup'], message: `must be ${RBAC_GROUP} for a ${subject.kind}` });
    }
  });
}

function roleRefSchema(kinds: readonly [string, ...string[]]) {
  return z
    .strictObject({
      apiGroup: z.literal(RBAC_GROUP, { error: `must be ${RBAC_GROUP}` }),
      kind: z.enum(kinds, { error: `must be ${kinds.join(' or ')}` }),
      name: z.string().min(1, 'must not be empty').max(253),
    })
    .meta({ description: 'The role granted. Immutable: delete and create the binding again to change it.' });
}

const subjects = z.array(subjectSchema).max(1024).optional().meta({ description: 'Who is granted the role: users, groups or service accounts.' });

export const roleBindingSchema = z
  .strictObject({
    apiVersion: z.literal(`${RBAC_GROUP}/v1`),
    kind: z.literal('RoleBinding'),
    metadata: objectMetaWith(rbacName('RoleBinding')),
    subjects,
    roleRef: roleRefSchema(['Role', 'ClusterRole']),
  })
  .superRefine((binding, context) => checkSubjects(binding.subjects, true, context))
  .meta({ description: 'Grants a role within a namespace: a resource template without replicas, propagated whole to the clusters its policy selects.' });

export const clusterRoleBindingSchema = z
  .strictObject({
    apiVersion: z.literal(`${RBAC_GROUP}/v1`),
    kind: z.literal('ClusterRoleBinding'),
    metadata: objectMetaWith(rbacName('ClusterRoleBinding')),
    subjects,
    roleRef: roleRefSchema(['ClusterRole']),
  })
  .superRefine((binding, context) => checkSubjects(binding.subjects, false, context))
  .meta({ description: 'Grants a cluster role everywhere: a cluster-scoped resource template without replicas, propagated whole to the clusters its policy selects.' });

/** The schemas of the RBAC kinds, by "apiVersion kind". */
export const RBAC_KIND_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  [`${RBAC_GROUP}/v1 Role`]: roleSchema,
  [`${RBAC_GROUP}/v1 ClusterRole`]: clusterRoleSchema,
  [`${RBAC_GROUP}/v1 RoleBinding`]: roleBindingSchema,
  [`${RBAC_GROUP}/v1 ClusterRoleBinding`]: clusterRoleBindingSchema,
};
