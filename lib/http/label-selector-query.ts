import { matchesLabelSelector, type Labels } from '../api/label-selector';
import { labelSelector, type LabelSelector } from '../api/meta';
import { ApiError } from './status';

type Requirement = NonNullable<LabelSelector['matchExpressions']>[number];

const KEY = String.raw`([^\s!=(),]+)`;
const VALUE = String.raw`([^\s!=(),]*)`;
const EQUALS = new RegExp(String.raw`^${KEY}\s*(==|=|!=)\s*${VALUE}$`);
const SET = new RegExp(String.raw`^${KEY}\s+(in|notin)\s*\(([^()]*)\)$`);
const EXISTS = new RegExp(String.raw`^${KEY}$`);
const NOT_EXISTS = new RegExp(String.raw`^!\s*${KEY}$`);

function invalid(selector: string, reason: string): ApiError {
  return new ApiError('BadRequest', `unable to parse labelSelector "${selector}": ${reason}`);
}

/** Splits at the commas between requirements, not those inside a value set such as "in (a,b)". */
function splitRequirements(selector: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < selector.length; i += 1) {
    const c = selector[i];
    if (c === '(') depth += 1;
    if (c === ')') depth -= 1;
    if (depth < 0) throw invalid(selector, 'unbalanced parentheses');
    if (depth > 1) throw invalid(selector, 'value sets do not nest');
    if (c === ',' && depth === 0) {
      parts.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0) throw invalid(selector, 'unbalanced parentheses');
  return [...parts, selector.slice(start)].map((p) => p.trim());
}

/** "a, b" is two values; "" none (which validation refuses, as Kubernetes does), not one empty value. */
function valuesOf(list: string): string[] {
  return list.trim() === '' ? [] : list.split(',').map((v) => v.trim());
}

function requirementOf(text: string, selector: string): Requirement {
  const equals = EQUALS.exec(text);
  if (equals) return { key: equals[1]!, operator: equals[2] === '!=' ? 'NotIn' : 'In', values: [equals[3]!] };
  const set = SET.exec(text);
  if (set) return { key: set[1]!, operator: set[2] === 'in' ? 'In' : 'NotIn', values: valuesOf(set[3]!) };
  const notExists = NOT_EXISTS.exec(text);
  if (notExists) return { key: notExists[1]!, operator: 'DoesNotExist' };
  const exists = EXISTS.exec(text);
  if (exists) return { key: exists[1]!, operator: 'Exists' };
  throw invalid(selector, `"${text}" is not a requirement (key, !key, key=value, key!=value, key in (a,b), key notin (a,b))`);
}

/**
 * The labelSelector query parameter as a predicate. "key=value" and "key!=value" mean In and NotIn
 * with one value, as in Kubernetes (so "!=" also selects objects without the key); keys and values
 * are checked with the same rules as a selector in a manifest.
 */
export function labelSelectorQuery(selector: string | undefined): (labels: Labels | undefined) => boolean {
  if (selector === undefined || selector.trim() === '') return () => true;
  const parsed = labelSelector.safeParse({ matchExpressions: splitRequirements(selector).map((r) => requirementOf(r, selector)) });
  if (!parsed.success) throw invalid(selector, parsed.error.issues.map((issue) => issue.message).join('; '));
  const matches: LabelSelector = parsed.data;
  return (labels) => matchesLabelSelector(matches, labels);
}
