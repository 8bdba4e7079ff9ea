import * as z from 'zod';
import { int32 } from './meta';

/**
 * Fields of Kubernetes' kinds that outrank keeps as written and does not read (a Deployment's strategy,
 * a container's probes), typed as Kubernetes' OpenAPI types them, so that `kubectl explain` shows what
 * each is and a value of the wrong type is refused as kube-apiserver refuses it. What is inside an
 * object or a list of objects is not checked: it is the member cluster's to read.
 */
export type KeptType = 'integer' | 'int64' | 'boolean' | 'string' | 'strings' | 'map' | 'object' | 'objects' | 'time';

const anyObject = z.record(z.string(), z.unknown()).meta({ 'x-kubernetes-preserve-unknown-fields': true });

const SCHEMAS = {
  integer: int32,
  int64: z.number().int('must be an integer'),
  boolean: z.boolean(),
  string: z.string(),
  strings: z.array(z.string()),
  map: z.record(z.string(), z.string()),
  object: anyObject,
  objects: z.array(anyObject),
  // An RFC 3339 time; null where a client writes a time not set (kubectl's `creationTimestamp: null`).
  time: z.string().nullable(),
} as const;

type Schemas = typeof SCHEMAS;

/** One kept field: its type, and what it is. */
export function kept<T extends KeptType>(type: T, description: string): z.ZodOptional<Schemas[T]> {
  return SCHEMAS[type].optional().meta({ description }) as z.ZodOptional<Schemas[T]>;
}

/** Kept fields from a table of [type, description] by name. */
export function keptFields<const Table extends Readonly<Record<string, readonly [KeptType, string]>>>(table: Table): { [Name in keyof Table]: z.ZodOptional<Schemas[Table[Name][0]]> } {
  return Object.fromEntries(Object.entries(table).map(([name, [type, description]]) => [name, kept(type, description)])) as { [Name in keyof Table]: z.ZodOptional<Schemas[Table[Name][0]]> };
}
