import { Composer, Parser, type CST, type Document } from 'yaml';

/**
 * How deep objects and arrays may nest in a manifest or a request body. Far deeper than any manifest (a
 * Deployment's container ports are eight levels down), far shallower than the stack: composing YAML,
 * validation, merge patching and storage all recurse through the object, and a text nested thousands
 * deep would exhaust the stack instead of being refused. Kubernetes' decoders stop at 10,000 levels
 * (encoding/json's limit, kept by sigs.k8s.io/json; go-yaml's, kept by sigs.k8s.io/yaml), a depth
 * Go's growable stacks afford.
 */
export const MAX_NESTING_DEPTH = 100;

export const NESTING_RULE = `must not be nested more than ${MAX_NESTING_DEPTH} levels deep`;

/** A text or value nested deeper than MAX_NESTING_DEPTH; its message is the rule. */
export class NestingDepthError extends Error {
  constructor() {
    super(NESTING_RULE);
    this.name = 'NestingDepthError';
  }
}

/**
 * Whether objects and arrays nest deeper than the limit, the outermost being level 1. Iterative, so that
 * measuring a hostile value cannot itself exhaust the stack; two stacks of objects and their depths, so
 * that a scenario of thousands of manifests is measured without an entry made per value.
 */
export function nestedDeeperThan(value: unknown, limit = MAX_NESTING_DEPTH): boolean {
  const objects: object[] = [];
  const depths: number[] = [];
  const visit = (child: unknown, depth: number) => {
    if (typeof child !== 'object' || child === null) return;
    objects.push(child);
    depths.push(depth);
  };
  visit(value, 1);
  while (objects.length > 0) {
    const next = objects.pop()!;
    const depth = depths.pop()!;
    if (depth > limit) return true;
    if (Array.isArray(next)) {
      for (const child of next) visit(child, depth + 1);
    } else {
      for (const key in next) if (Object.hasOwn(next, key)) visit((next as Record<string, unknown>)[key], depth + 1);
    }
  }
  return false;
}

/** The same measure on YAML's syntax tree, which the parser builds without recursing: block and flow collections alike are levels. */
function syntaxNestedDeeperThan(root: CST.Token, limit: number): boolean {
  const pending: Array<{ token: CST.Token | null | undefined; outer: number }> = [{ token: root, outer: 0 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { token, outer } = next;
    if (token?.type === 'document') pending.push({ token: token.value, outer });
    if (token?.type !== 'block-map' && token?.type !== 'block-seq' && token?.type !== 'flow-collection') continue;
    if (outer + 1 > limit) return true;
    for (const item of token.items as readonly CST.CollectionItem[]) pending.push({ token: item.key, outer: outer + 1 }, { token: item.value, outer: outer + 1 });
  }
  return false;
}

/**
 * The documents of a YAML (or JSON) text, as `parseAllDocuments` composes them, but each only once its
 * syntax tree is known to nest within the limit: composing recurses, and a text like `[[[[…` ten
 * thousand deep would exhaust the stack. Throws NestingDepthError otherwise.
 */
export function composeDocuments(text: string, options: ConstructorParameters<typeof Composer>[0]): Document.Parsed[] {
  return Array.from(new Composer(options).compose(withinDepth(new Parser().parse(text))));
}

/** The parser's tokens (a document each, mostly), each passed on to be composed once measured. */
function* withinDepth(tokens: Iterable<CST.Token>): Generator<CST.Token> {
  for (const token of tokens) {
    if (syntaxNestedDeeperThan(token, MAX_NESTING_DEPTH)) throw new NestingDepthError();
    yield token;
  }
}
