import { randomUUID } from 'node:crypto';

/** Where each new object's metadata.uid comes from. */
export interface Uids {
  next(): string;
}

/** Random UUIDs (version 4), as kube-apiserver gives every object it creates. */
export const randomUids: Uids = { next: () => randomUUID() };
