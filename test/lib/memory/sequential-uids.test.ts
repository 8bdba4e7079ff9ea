import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SequentialUids } from '../../../lib/memory/sequential-uids';

/** The definition: the first 16 bytes of SHA-256(`seed/n`), version 4 and variant bits set, as 8-4-4-4-12 hex. */
function uidByDefinition(seed: string, n: number): string {
  const bytes = createHash('sha256').update(`${seed}/${n}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

describe('SequentialUids', () => {
  it('draws the same sequence on every run, so that a simulation decides the same', () => {
    const uids = new SequentialUids();
    expect([uids.next(), uids.next(), uids.next()]).toEqual([
      '7997ae53-e867-40b8-96a2-d679f36b70cc',
      '75c927a4-091f-466b-88d6-84bebaa44f5b',
      '75d68780-be29-4d7e-b970-671268f61753',
    ]);
    expect(new SequentialUids('events').next()).toBe('5b58774d-21b8-4431-8530-a3f444165040');
  });

  it('is the hash of seed and position, shaped as a version 4 UUID, for every variant nibble', () => {
    const uids = new SequentialUids('fleet');
    const variants = new Set<string>();
    for (let n = 0; n < 2_000; n += 1) {
      const uid = uids.next();
      expect(uid).toBe(uidByDefinition('fleet', n));
      expect(uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      variants.add(uid[19]!);
    }
    expect([...variants].sort()).toEqual(['8', '9', 'a', 'b']);
  });
});
