import type * as z from 'zod';
import { fieldPath } from '../api/invalid-object-error';

/**
 * A rule a schema states in a custom issue, as kube-apiserver's field.ErrorType names it: the issue's
 * `params` carry it under this key (scenario.ts: a step with no action is "Required value").
 */
export const FIELD_ERROR_TYPE = 'fieldErrorType';

/** One violated rule: where in the document (the path of the node to point at) and what, worded as kube-apiserver words it. */
export interface FieldError {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

const TYPE_NAMES: Readonly<Record<string, string>> = { int: 'integer', record: 'object', tuple: 'array' };

/** A value as a field error shows it: scalars as written (strings quoted), collections by their type, as for a CRD. */
function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  return JSON.stringify(Array.isArray(value) ? 'array' : typeof value);
}

function itemsOf(value: unknown): string {
  return Array.isArray(value) ? String(value.length) : shown(value);
}

/** "Required value" for what is missing, null or empty, as a required field of a Kubernetes object is. */
function isAbsent(issue: z.core.$ZodIssue): boolean {
  if (issue.code === 'invalid_type') return issue.input === undefined || issue.input === null;
  if (issue.code === 'too_small') return (issue.origin === 'array' || issue.origin === 'string') && Number(issue.minimum) === 1;
  return false;
}

/** What follows the field: field.ErrorType's string, then the value and the detail where kube-apiserver gives them. */
function body(issue: z.core.$ZodIssue): string {
  if (isAbsent(issue)) return 'Required value';
  switch (issue.code) {
    case 'invalid_type':
      return `Invalid value: ${shown(issue.input)}: must be of type ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    case 'invalid_value':
      return `Unsupported value: ${shown(issue.input)}: supported values: ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'too_big':
      if (issue.origin === 'array') return `Too many: ${itemsOf(issue.input)}: must have at most ${issue.maximum} items`;
      if (issue.origin === 'string') return `Too long: may not be more than ${issue.maximum} characters`;
      return `Invalid value: ${shown(issue.input)}: must be less than or equal to ${issue.maximum}`;
    case 'too_small':
      if (issue.origin === 'array') return `Invalid value: ${itemsOf(issue.input)}: must have at least ${issue.minimum} items`;
      if (issue.origin === 'string') return `Invalid value: ${shown(issue.input)}: must be at least ${issue.minimum} characters`;
      return `Invalid value: ${shown(issue.input)}: must be greater than or equal to ${issue.minimum}`;
    case 'custom': {
      const type = issue.params?.[FIELD_ERROR_TYPE] as string | undefined;
      return type ? `${type}: ${issue.message}` : `Invalid value: ${shown(issue.input)}: ${issue.message}`;
    }
    case 'invalid_key':
      return `Invalid value: ${shown(issue.input)}: ${issue.issues.map((inner) => inner.message).join('; ')}`;
    default:
      return `Invalid value: ${shown(issue.input)}: ${issue.message}`;
  }
}

/**
 * The issues of a parse (made with `reportInput: true`, so that values can be shown) as kube-apiserver's
 * field errors: `steps[2].apply: Required value`, `steps[0].wait: Invalid value: "soon": must be a
 * duration…`, and a field the schema does not have as its strict decoding words it: `unknown field "x"`.
 */
export function fieldErrorsOf(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  return issues.flatMap((issue): FieldError[] => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: [...issue.path, key], message: `unknown field ${JSON.stringify(fieldPath([...issue.path, key]))}` }));
    }
    return [{ path: issue.path, message: `${fieldPath(issue.path)}: ${body(issue)}` }];
  });
}
