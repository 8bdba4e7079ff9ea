import { hash } from 'node:crypto';
import type { Uids } from '../ports/uids';

const HEX_DIGITS = '0123456789abcdef';

/**
 * UUIDs shaped as version 4 but drawn from a fixed sequence, for simulations and tests: a scenario run
 * twice gives its objects the same uids, so whatever they decide (Webster's ties, tie-order.ts) comes
 * out the same. Each is the first 16 bytes of the SHA-256 of `seed/n`, its version and variant bits set
 * as a random UUID's. One-shot hashing to hex: a simulation draws one per object and event it writes.
 */
export class SequentialUids implements Uids {
  private issued = 0;

  constructor(private readonly seed = 'outrank') {}

  next(): string {
    const hex = hash('sha256', `${this.seed}/${this.issued++}`, 'hex');
    // Version 4 in the high nibble of byte 6; the variant bits 10 in the high bits of byte 8.
    const variant = HEX_DIGITS[(Number.parseInt(hex[16]!, 16) & 0x3) | 0x8]!;
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }
}
