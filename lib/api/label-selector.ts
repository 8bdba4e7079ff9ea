import type { LabelSelector } from './meta';

export type Labels = Readonly<Record<string, string>>;

/** Kubernetes label selector semantics: all matchLabels and all matchExpressions must hold; empty matches all. */
export function matchesLabelSelector(selector: LabelSelector | undefined, labels: Labels | undefined): boolean {
  if (!selector) return true;
  const present = labels ?? {};
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (ownLabel(present, key) !== value) return false;
  }
  for (const requirement of selector.matchExpressions ?? []) {
    const value = ownLabel(present, requirement.key);
    const values = requirement.values ?? [];
    switch (requirement.operator) {
      case 'In':
        if (value === undefined || !values.includes(value)) return false;
        break;
      case 'NotIn':
        if (value !== undefined && values.includes(value)) return false;
        break;
      case 'Exists':
        if (value === undefined) return false;
        break;
      case 'DoesNotExist':
        if (value !== undefined) return false;
        break;
    }
  }
  return true;
}

/** Own labels only: "constructor" and "toString" are valid label keys, not inherited object members. */
function ownLabel(labels: Labels, key: string): string | undefined {
  return Object.hasOwn(labels, key) ? labels[key] : undefined;
}
