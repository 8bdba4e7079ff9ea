/**
 * JSON.stringify(value, null, 2) in pieces: the same text, written a piece at a time, so that a result of
 * hundreds of megabytes (`outrank simulate -o json` of a fleet of 100,000) is never held whole as one
 * string, its copy and its encoding at once. The first levels of objects and arrays are walked here;
 * what lies deeper comes from JSON.stringify itself: an object's member after its key, an array's
 * elements ELEMENTS_AT_ONCE to a piece.
 */
const INDENT = '  ';
/** Elements of an array past the levels walked that one JSON.stringify writes at once. */
const ELEMENTS_AT_ONCE = 1_000;

export function jsonChunks(value: unknown, levels = 2): Generator<string> {
  return chunksAt(value, levels, '');
}

/** jsonChunks of a value that stands at `indent`, INDENT repeated. */
function* chunksAt(value: unknown, levels: number, indent: string): Generator<string> {
  const prepared = prepare(value);
  if (levels === 0 || prepared === null || typeof prepared !== 'object') {
    yield indented(JSON.stringify(prepared, null, 2) ?? 'null', indent);
    return;
  }
  const inner = indent + INDENT;
  if (Array.isArray(prepared)) {
    if (prepared.length === 0) {
      yield '[]';
      return;
    }
    yield '[';
    if (levels === 1) {
      yield* elementChunks(prepared, inner);
      yield `\n${indent}]`;
      return;
    }
    for (let i = 0; i < prepared.length; i++) {
      yield `${i === 0 ? '' : ','}\n${inner}`;
      // As JSON.stringify: what has no JSON form is null in an array.
      yield* chunksAt(hasJsonForm(prepared[i]) ? prepared[i] : null, levels - 1, inner);
    }
    yield `\n${indent}]`;
    return;
  }
  const entries = Object.entries(prepared).filter(([, member]) => hasJsonForm(member));
  if (entries.length === 0) {
    yield '{}';
    return;
  }
  yield '{';
  for (let i = 0; i < entries.length; i++) {
    const [key, member] = entries[i]!;
    yield `${i === 0 ? '' : ','}\n${inner}${JSON.stringify(key)}: `;
    yield* chunksAt(member, levels - 1, inner);
  }
  yield `\n${indent}}`;
}

/**
 * The elements of an array past the levels walked, each on its line at `inner` with the separators
 * between them, ELEMENTS_AT_ONCE to a piece. Each piece is one JSON.stringify of those elements nested
 * in arrays as deep as `inner` is, so that it indents them as they stand here; the lines of the arrays
 * around them are cut off. One call per element, its text then indented, cost several times more.
 */
function* elementChunks(elements: readonly unknown[], inner: string): Generator<string> {
  const depth = inner.length / INDENT.length;
  const opening = Array.from({ length: depth }, (_, level) => `${INDENT.repeat(level)}[\n`).join('');
  const closing = Array.from({ length: depth }, (_, level) => `\n${INDENT.repeat(depth - 1 - level)}]`).join('');
  for (let start = 0; start < elements.length; start += ELEMENTS_AT_ONCE) {
    let nested: unknown = elements.slice(start, start + ELEMENTS_AT_ONCE);
    for (let level = 1; level < depth; level++) nested = [nested];
    const text = JSON.stringify(nested, null, 2);
    yield `${start === 0 ? '' : ','}\n${text.slice(opening.length, text.length - closing.length)}`;
  }
}

/** What JSON.stringify would serialize in place of `value`: its toJSON() when it has one. */
function prepare(value: unknown): unknown {
  return value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function'
    ? (value as { toJSON: () => unknown }).toJSON()
    : value;
}

function hasJsonForm(value: unknown): boolean {
  const prepared = prepare(value);
  return prepared !== undefined && typeof prepared !== 'function' && typeof prepared !== 'symbol';
}

/** JSON text never holds a raw line break inside a string, so every one starts a line to indent. */
function indented(text: string, indent: string): string {
  return indent === '' ? text : text.replaceAll('\n', `\n${indent}`);
}
