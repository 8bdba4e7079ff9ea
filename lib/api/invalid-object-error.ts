/** One violated rule: the field path as Kubernetes writes it (spec.placement.clusterAffinities[1].affinityName). */
export interface FieldCause {
  readonly field: string;
  readonly message: string;
}

/** A manifest that breaks a rule; nothing was written. Mirrors a Kubernetes 422 Invalid status. */
export class InvalidObjectError extends Error {
  constructor(
    readonly kind: string,
    readonly objectName: string,
    readonly causes: readonly FieldCause[],
    readonly code: 400 | 413 | 422 = 422,
  ) {
    super(`${kind} "${objectName || '<unnamed>'}" is invalid: ${causes.map((c) => `${c.field}: ${c.message}`).join('; ')}`);
    this.name = 'InvalidObjectError';
  }
}

export function fieldPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text ? `.${String(segment)}` : String(segment);
  }
  return text || '<root>';
}
