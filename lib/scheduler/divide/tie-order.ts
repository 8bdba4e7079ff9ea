/**
 * How Webster breaks a tie between clusters of equal priority and equal seats: by name, ascending or descending,
 * chosen per workload as Karmada chooses it (pkg/util/helper/binding.go, tieBreakerByUID): the 32-bit FNV-1a hash
 * of the workload's UID (the binding's spec.resource.uid, the template's metadata.uid), descending when it is odd,
 * ascending when it is even or there is no UID. Workloads whose division ties the same way thus do not all favour
 * the cluster with the smaller name, while each workload's own divisions stay stable.
 */
export type TieOrder = 'name-ascending' | 'name-descending';

const FNV_OFFSET_BASIS = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** Go's hash/fnv New32a over the UTF-8 bytes of `text`, as Go's []byte(string) gives them. */
export function fnv1a32(text: string): number {
  let hash = FNV_OFFSET_BASIS;
  for (const byte of Buffer.from(text, 'utf8')) hash = Math.imul(hash ^ byte, FNV_PRIME) >>> 0;
  return hash;
}

export function tieOrderOf(uid: string | undefined): TieOrder {
  if (!uid) return 'name-ascending';
  return (fnv1a32(uid) & 1) === 1 ? 'name-descending' : 'name-ascending';
}
