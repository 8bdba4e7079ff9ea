import { isDeepStrictEqual } from 'node:util';
import type { FieldCause } from './invalid-object-error';
import { definitionUpdateCauses, isCustomResourceDefinition } from './custom-resource-definition';

interface AnyObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly [field: string]: unknown;
}

const IMMUTABLE_DATA: Readonly<Record<string, readonly string[]>> = {
  'v1 ConfigMap': ['data', 'binaryData'],
  'v1 Secret': ['data'],
};

/** An immutable ConfigMap or Secret keeps its data and stays immutable (kube-apiserver's ValidateConfigMapUpdate, ValidateSecretUpdate). */
function immutableDataCauses(next: AnyObject, previous: AnyObject): FieldCause[] {
  const fields = IMMUTABLE_DATA[`${next.apiVersion} ${next.kind}`];
  if (!fields || previous.immutable !== true) return [];
  const causes: FieldCause[] = [];
  if (next.immutable !== true) causes.push({ field: 'immutable', message: 'field is immutable when `immutable` is set' });
  for (const field of fields) {
    if (!isDeepStrictEqual(next[field] ?? {}, previous[field] ?? {})) causes.push({ field, message: 'field is immutable when `immutable` is set' });
  }
  return causes;
}

/**
 * What an update of a template may not change, as kube-apiserver refuses it: the data of an immutable
 * ConfigMap or Secret, a Secret's type, an RBAC binding's roleRef, a CustomResourceDefinition's scope.
 */
export function templateUpdateCauses(next: AnyObject, previous: AnyObject): FieldCause[] {
  const causes = immutableDataCauses(next, previous);
  const kind = `${next.apiVersion} ${next.kind}`;
  if (kind === 'v1 Secret' && (next.type ?? 'Opaque') !== (previous.type ?? 'Opaque')) causes.push({ field: 'type', message: 'field is immutable' });
  if ((kind === 'rbac.authorization.k8s.io/v1 RoleBinding' || kind === 'rbac.authorization.k8s.io/v1 ClusterRoleBinding') && !isDeepStrictEqual(next.roleRef, previous.roleRef)) {
    causes.push({ field: 'roleRef', message: 'cannot change roleRef: delete the binding and create it again' });
  }
  if (isCustomResourceDefinition(next) && isCustomResourceDefinition(previous)) causes.push(...definitionUpdateCauses(next, previous));
  return causes;
}
