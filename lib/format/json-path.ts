/**
 * The value at a printer column's JSONPath, in the simple form CustomResourceDefinitions write them:
 * `.spec.replicas`, `.status.conditions[0].type`, `.metadata.labels.app\.example\.com/tier` (an escaped
 * dot stays in the field name). Anything the path does not reach, or a form it does not take (filters,
 * wildcards), is undefined.
 */
export function valueAt(object: unknown, path: string): unknown {
  const steps = stepsOf(path.trim().replace(/^\{(.*)\}$/, '$1'));
  if (!steps) return undefined;
  let value: unknown = object;
  for (const step of steps) {
    if (typeof step === 'number') value = Array.isArray(value) ? value.at(step) : undefined;
    else value = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[step] : undefined;
    if (value === undefined) return undefined;
  }
  return value;
}

function stepsOf(path: string): Array<string | number> | undefined {
  if (!path.startsWith('.')) return undefined;
  const steps: Array<string | number> = [];
  let field = '';
  for (let index = 1; index < path.length; index++) {
    const char = path[index]!;
    if (char === '\\' && index + 1 < path.length) {
      field += path[++index];
    } else if (char === '.') {
      steps.push(field);
      field = '';
    } else if (char === '[') {
      const end = path.indexOf(']', index);
      const position = Number(path.slice(index + 1, end));
      if (end < 0 || !Number.isInteger(position)) return undefined;
      if (field) steps.push(field);
      steps.push(position);
      field = '';
      index = end;
      if (path[index + 1] === '.') index++;
    } else {
      field += char;
    }
  }
  if (field) steps.push(field);
  return steps.some((step) => step === '' || step === '*') ? undefined : steps;
}
