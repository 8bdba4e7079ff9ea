import jsonPatch, { type Operation } from 'fast-json-patch';

/** A JSON patch that cannot be applied: malformed, a path that does not resolve, or a failed `test`. */
export class JsonPatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonPatchError';
  }
}

/** Kubernetes bounds the operations of one patch likewise: each is applied to a copy of the whole object. */
const MAX_OPERATIONS = 10_000;

/**
 * RFC 6902 JSON patch, applied to a copy of `target`. Operations are validated first, so a malformed
 * one refuses the whole patch; an operation on `__proto__` is refused rather than applied.
 */
export function applyJsonPatch(target: unknown, operations: unknown): unknown {
  if (!Array.isArray(operations)) throw new JsonPatchError('a JSON patch must be an array of operations');
  if (operations.length > MAX_OPERATIONS) throw new JsonPatchError(`a JSON patch may hold at most ${MAX_OPERATIONS} operations`);
  try {
    return jsonPatch.applyPatch(structuredClone(target), operations as Operation[], true, true).newDocument;
  } catch (error) {
    const index = (error as { index?: number }).index;
    const where = index === undefined ? '' : ` (operation ${index})`;
    throw new JsonPatchError(`the JSON patch cannot be applied${where}: ${(error as Error).message.split('\n')[0]}`);
  }
}
