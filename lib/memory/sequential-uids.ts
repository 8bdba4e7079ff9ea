import { createHash } from 'node:crypto';
import type { Uids } from '../ports/uids';

/**
 * UUIDs shaped as version 4 but drawn from a fixed sequence, for simulations and tests: a scenario run
 * twice gives its objects the same uids, so whatever they decide (Webster's ties, tie-order.ts) comes
 * out the same. Each is the SHA-256 of `seed/n`, its version and variant bits set as a random UUID's.
 */
export class SequentialUids implements Uids {
  private issued = 0;

  constructor(private readonly seed = 'outrank') {}

  next(): string {
    const bytes = createHash('sha256').update(`${this.seed}/${this.issued++}`).digest().subarray(0, 16);
    bytes[6] = (bytes[6]! & 0x0f) | 0x40;
    bytes[8] = (bytes[8]! & 0x3f) | 0x80;
    const hex = bytes.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
}
