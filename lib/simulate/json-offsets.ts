/**
 * Where fields are written in a JSON text, found by one pass over the text rather than by composing it as
 * YAML: a generated scenario of many megabytes composes in seconds and a gigabyte, and an error in it
 * is then slow to report at fleet size, or not reported at all. The text must be JSON that parses.
 */

/** The fields wanted below one point of the text, and where that point is once found. */
interface Wanted {
  offset: number | undefined;
  /** Found as a list's item: a path reaches it by a number only, as offsetOf's. */
  inList: boolean;
  /** By the segment as a string: a mapping's key, a list's index. */
  readonly below: Map<string, Wanted>;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

function wanted(): Wanted {
  return { offset: undefined, inList: false, below: new Map() };
}

/**
 * For each path, as source-lines.ts's offsetOf finds it in a YAML document: the start of the key of a
 * mapping's field, the start of a list's item; a field that is not there is pointed at by the nearest
 * enclosing one that is, the document itself at last.
 */
export function jsonOffsets(text: string, paths: ReadonlyArray<readonly PropertyKey[]>): number[] {
  const root = wanted();
  for (const path of paths) {
    let point = root;
    for (const segment of path) {
      const step = String(segment);
      let next = point.below.get(step);
      if (!next) point.below.set(step, (next = wanted()));
      point = next;
    }
  }
  const scanner = new JsonScanner(text);
  root.offset = scanner.skipWhitespace();
  scanner.locate(root);
  return paths.map((path) => {
    let point = root;
    let offset = root.offset ?? 0;
    for (const segment of path) {
      const next = point.below.get(String(segment));
      if (next?.offset === undefined || (next.inList && typeof segment !== 'number')) break;
      offset = next.offset;
      point = next;
    }
    return offset;
  });
}

/** The offsets found below `point`, cleared. */
function forget(point: Wanted): void {
  for (const below of point.below.values()) {
    if (below.offset === undefined) continue;
    below.offset = undefined;
    forget(below);
  }
}

class JsonScanner {
  private at = 0;

  constructor(private readonly text: string) {}

  skipWhitespace(): number {
    const { text } = this;
    while (this.at < text.length && isWhitespace(text.charCodeAt(this.at))) this.at += 1;
    return this.at;
  }

  /** Reads the value at the current offset, noting where the wanted fields within it start. */
  locate(point: Wanted): void {
    if (point.below.size === 0) return this.skipValue();
    const code = this.text.charCodeAt(this.at);
    if (code === OPEN_BRACE) return this.locateWithin(point, CLOSE_BRACE, false);
    if (code === OPEN_BRACKET) return this.locateWithin(point, CLOSE_BRACKET, true);
    this.skipValue();
  }

  /** Reads a mapping or a list: each field where its key starts, each item where it starts. */
  private locateWithin(point: Wanted, close: number, inList: boolean): void {
    this.at += 1;
    if (this.skipWhitespace() < this.text.length && this.text.charCodeAt(this.at) === close) {
      this.at += 1;
      return;
    }
    for (let index = 0; ; index += 1) {
      const start = this.skipWhitespace();
      const found = point.below.get(inList ? String(index) : this.key());
      if (found) {
        // JSON.parse keeps the last of a key written twice: what an earlier one held is not in the value.
        if (found.offset !== undefined) forget(found);
        found.offset = start;
        found.inList = inList;
        this.locate(found);
      } else {
        this.skipValue();
      }
      if (this.endOfCollection(close)) return;
    }
  }

  /** A mapping's key at the current offset, read past its colon up to its value. */
  private key(): string {
    const start = this.at;
    const key = JSON.parse(this.text.slice(start, this.skipString())) as string;
    this.skipWhitespace();
    this.at += 1; // the colon
    this.skipWhitespace();
    return key;
  }

  /** After an item: true past the collection's closing character, false past the comma before the next item. */
  private endOfCollection(close: number): boolean {
    this.skipWhitespace();
    const code = this.text.charCodeAt(this.at);
    this.at += 1;
    if (code === close) return true;
    if (code === COMMA) return false;
    throw new Error(`not JSON at offset ${this.at - 1}`);
  }

  /** Past the string starting at the current offset; returns the offset after its closing quote. */
  private skipString(): number {
    const { text } = this;
    let at = this.at + 1;
    for (;;) {
      const quote = text.indexOf('"', at);
      if (quote < 0) throw new Error(`not JSON: a string from offset ${this.at} does not end`);
      let backslashes = 0;
      while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes += 1;
      at = quote + 1;
      if (backslashes % 2 === 0) break;
    }
    this.at = at;
    return at;
  }

  /** Past the value starting at the current offset (a scalar, or a collection with all it holds). */
  private skipValue(): void {
    const { text } = this;
    let depth = 0;
    while (this.at < text.length) {
      const code = text.charCodeAt(this.at);
      if (code === QUOTE) {
        this.skipString();
        if (depth === 0) return;
        continue;
      }
      if (code === OPEN_BRACE || code === OPEN_BRACKET) depth += 1;
      else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
        // A scalar ends at the close of the collection it is the last item of.
        if (depth === 0) return;
        depth -= 1;
        if (depth === 0) {
          this.at += 1;
          return;
        }
      } else if (depth === 0 && (code === COMMA || isWhitespace(code))) return;
      this.at += 1;
    }
  }
}
