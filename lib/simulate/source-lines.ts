import { isMap, isScalar, isSeq, LineCounter, type Document, type Node } from 'yaml';

/** The line (from 1) of each offset in `text`. */
export function lineCounterOf(text: string): (offset: number) => number {
  const counter = new LineCounter();
  counter.addNewLine(0);
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) counter.addNewLine(at + 1);
  return (offset) => counter.linePos(offset).line;
}

function startOf(node: Node | null | undefined): number | undefined {
  return node?.range?.[0];
}

/**
 * Where the field at `path` is written in a parsed YAML (or JSON) document, as an offset: the key of a
 * mapping's field, the start of a list's item. A field that is not there (a required one left out) is
 * pointed at by the nearest enclosing one that is.
 */
export function offsetOf(document: Document.Parsed, path: readonly PropertyKey[]): number {
  let node: unknown = document.contents;
  let offset = startOf(document.contents) ?? 0;
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment));
      if (!pair) break;
      offset = startOf(pair.key as Node) ?? offset;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      const item = node.items[segment];
      if (item === undefined) break;
      offset = startOf(item as Node) ?? offset;
      node = item;
    } else {
      break;
    }
  }
  return offset;
}
