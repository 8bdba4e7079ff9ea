/**
 * Just enough of the protobuf wire format to read the few Kubernetes objects that clients send only
 * as protobuf (kubectl sends SelfSubjectAccessReviews so): the fields of one message, by number.
 * Strings and nested messages are length-delimited; numbers are skipped over.
 */

const ENVELOPE = Buffer.from([0x6b, 0x38, 0x73, 0x00]); // "k8s\0", then a runtime.Unknown

export class ProtobufError extends Error {}

function varint(bytes: Uint8Array, start: number): [value: number, next: number] {
  let value = 0;
  for (let offset = start, shift = 0; offset < bytes.length && shift < 64; offset += 1, shift += 7) {
    const byte = bytes[offset]!;
    value += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return [value, offset + 1];
  }
  throw new ProtobufError('truncated varint');
}

/** The length-delimited fields of a message (strings, bytes, nested messages), by field number. */
export function messageFields(bytes: Uint8Array): Map<number, Uint8Array[]> {
  const fields = new Map<number, Uint8Array[]>();
  let offset = 0;
  while (offset < bytes.length) {
    const [tag, afterTag] = varint(bytes, offset);
    const field = Math.floor(tag / 8);
    switch (tag % 8) {
      case 0:
        offset = varint(bytes, afterTag)[1];
        break;
      case 1:
        offset = afterTag + 8;
        break;
      case 5:
        offset = afterTag + 4;
        break;
      case 2: {
        const [length, start] = varint(bytes, afterTag);
        if (start + length > bytes.length) throw new ProtobufError('truncated field');
        fields.set(field, [...(fields.get(field) ?? []), bytes.subarray(start, start + length)]);
        offset = start + length;
        break;
      }
      default:
        throw new ProtobufError(`unsupported wire type ${tag % 8}`);
    }
  }
  return fields;
}

export function stringField(fields: Map<number, Uint8Array[]>, field: number): string | undefined {
  const value = fields.get(field)?.[0];
  return value === undefined ? undefined : Buffer.from(value).toString('utf8');
}

export function messageField(fields: Map<number, Uint8Array[]>, field: number): Map<number, Uint8Array[]> {
  return messageFields(fields.get(field)?.[0] ?? new Uint8Array());
}

/** The encoded object inside Kubernetes' protobuf envelope (runtime.Unknown's raw, field 2). */
export function unwrapEnvelope(body: Buffer): Uint8Array {
  if (!body.subarray(0, 4).equals(ENVELOPE)) throw new ProtobufError('not a Kubernetes protobuf object (no k8s\\0 prefix)');
  const raw = messageFields(body.subarray(4)).get(2)?.[0];
  if (raw === undefined) throw new ProtobufError('the envelope holds no object');
  return raw;
}
