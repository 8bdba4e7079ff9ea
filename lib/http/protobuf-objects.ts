import { messageFields, ProtobufError, unwrapEnvelope } from './protobuf-fields';

/**
 * The built-in objects kubectl's typed clients send as protobuf (`kubectl create deployment`, `create
 * job`, `create namespace`, …: kube-apiserver accepts them so, and kubectl does not fall back to JSON),
 * read into the JSON object they stand for. Each message is described by the fields those commands can
 * set, numbered as in Kubernetes' generated.proto files. Go's protobuf encoder writes every non-pointer
 * field, set or not: a field missing from a description is skipped when it holds only zero values, and
 * refused, naming it, when it holds more (nothing is ever dropped silently).
 */

type Scalar = 'string' | 'int' | 'bool' | 'bytes' | 'quantity' | 'int-or-string' | 'time';

interface Field {
  readonly name: string;
  /** A scalar type, or the name of a message in MESSAGES. */
  readonly type: Scalar | string;
  readonly repeated?: true;
  /** map<string, type>: repeated entries of key (1) and value (2). */
  readonly map?: true;
  /** A pointer in Go (written only when set), so its zero is meaningful: kept. */
  readonly keepZero?: true;
}

const f = (name: string, type: Field['type'], options: Omit<Field, 'name' | 'type'> = {}): Field => ({ name, type, ...options });
const KEEP = { keepZero: true } as const;
const LIST = { repeated: true } as const;
const MAP = { map: true } as const;

const MESSAGES: Readonly<Record<string, Readonly<Record<number, Field>>>> = {
  ObjectMeta: {
    1: f('name', 'string'),
    2: f('generateName', 'string'),
    3: f('namespace', 'string'),
    5: f('uid', 'string'),
    6: f('resourceVersion', 'string'),
    7: f('generation', 'int'),
    8: f('creationTimestamp', 'time'),
    11: f('labels', 'string', MAP),
    12: f('annotations', 'string', MAP),
    13: f('ownerReferences', 'OwnerReference', LIST),
    14: f('finalizers', 'string', LIST),
  },
  OwnerReference: { 1: f('kind', 'string'), 3: f('name', 'string'), 4: f('uid', 'string'), 5: f('apiVersion', 'string'), 6: f('controller', 'bool', KEEP), 7: f('blockOwnerDeletion', 'bool', KEEP) },
  LabelSelector: { 1: f('matchLabels', 'string', MAP), 2: f('matchExpressions', 'LabelSelectorRequirement', LIST) },
  LabelSelectorRequirement: { 1: f('key', 'string'), 2: f('operator', 'string'), 3: f('values', 'string', LIST) },
  Deployment: { 1: f('metadata', 'ObjectMeta'), 2: f('spec', 'DeploymentSpec'), 3: f('status', 'Empty') },
  DeploymentSpec: {
    1: f('replicas', 'int', KEEP),
    2: f('selector', 'LabelSelector'),
    3: f('template', 'PodTemplateSpec'),
    4: f('strategy', 'DeploymentStrategy'),
    5: f('minReadySeconds', 'int'),
    6: f('revisionHistoryLimit', 'int', KEEP),
    7: f('paused', 'bool'),
    9: f('progressDeadlineSeconds', 'int', KEEP),
  },
  DeploymentStrategy: { 1: f('type', 'string') },
  Job: { 1: f('metadata', 'ObjectMeta'), 2: f('spec', 'JobSpec'), 3: f('status', 'Empty') },
  JobSpec: {
    1: f('parallelism', 'int', KEEP),
    2: f('completions', 'int', KEEP),
    3: f('activeDeadlineSeconds', 'int', KEEP),
    4: f('selector', 'LabelSelector'),
    5: f('manualSelector', 'bool', KEEP),
    6: f('template', 'PodTemplateSpec'),
    7: f('backoffLimit', 'int', KEEP),
    8: f('ttlSecondsAfterFinished', 'int', KEEP),
    9: f('completionMode', 'string'),
    10: f('suspend', 'bool', KEEP),
  },
  PodTemplateSpec: { 1: f('metadata', 'ObjectMeta'), 2: f('spec', 'PodSpec') },
  PodSpec: {
    2: f('containers', 'Container', LIST),
    3: f('restartPolicy', 'string'),
    4: f('terminationGracePeriodSeconds', 'int', KEEP),
    7: f('nodeSelector', 'string', MAP),
    8: f('serviceAccountName', 'string'),
    19: f('schedulerName', 'string'),
    20: f('initContainers', 'Container', LIST),
    24: f('priorityClassName', 'string'),
  },
  Container: {
    1: f('name', 'string'),
    2: f('image', 'string'),
    3: f('command', 'string', LIST),
    4: f('args', 'string', LIST),
    5: f('workingDir', 'string'),
    6: f('ports', 'ContainerPort', LIST),
    7: f('env', 'EnvVar', LIST),
    8: f('resources', 'ResourceRequirements'),
    14: f('imagePullPolicy', 'string'),
  },
  ContainerPort: { 1: f('name', 'string'), 2: f('hostPort', 'int'), 3: f('containerPort', 'int'), 4: f('protocol', 'string') },
  EnvVar: { 1: f('name', 'string'), 2: f('value', 'string') },
  ResourceRequirements: { 1: f('limits', 'quantity', MAP), 2: f('requests', 'quantity', MAP) },
  Namespace: { 1: f('metadata', 'ObjectMeta'), 2: f('spec', 'Empty'), 3: f('status', 'Empty') },
  Service: { 1: f('metadata', 'ObjectMeta'), 2: f('spec', 'ServiceSpec'), 3: f('status', 'Empty') },
  ServiceSpec: {
    1: f('ports', 'ServicePort', LIST),
    2: f('selector', 'string', MAP),
    3: f('clusterIP', 'string'),
    4: f('type', 'string'),
    10: f('externalName', 'string'),
  },
  ServicePort: { 1: f('name', 'string'), 2: f('protocol', 'string'), 3: f('port', 'int', KEEP), 4: f('targetPort', 'int-or-string'), 5: f('nodePort', 'int') },
  ConfigMap: { 1: f('metadata', 'ObjectMeta'), 2: f('data', 'string', MAP), 3: f('binaryData', 'bytes', MAP), 4: f('immutable', 'bool', KEEP) },
  Secret: { 1: f('metadata', 'ObjectMeta'), 2: f('data', 'bytes', MAP), 3: f('type', 'string'), 4: f('stringData', 'string', MAP), 5: f('immutable', 'bool', KEEP) },
  ServiceAccount: { 1: f('metadata', 'ObjectMeta'), 4: f('automountServiceAccountToken', 'bool', KEEP) },
  PriorityClass: { 1: f('metadata', 'ObjectMeta'), 2: f('value', 'int', KEEP), 3: f('globalDefault', 'bool'), 4: f('description', 'string'), 5: f('preemptionPolicy', 'string') },
  Role: { 1: f('metadata', 'ObjectMeta'), 2: f('rules', 'PolicyRule', LIST) },
  ClusterRole: { 1: f('metadata', 'ObjectMeta'), 2: f('rules', 'PolicyRule', LIST) },
  RoleBinding: { 1: f('metadata', 'ObjectMeta'), 2: f('subjects', 'Subject', LIST), 3: f('roleRef', 'RoleRef') },
  ClusterRoleBinding: { 1: f('metadata', 'ObjectMeta'), 2: f('subjects', 'Subject', LIST), 3: f('roleRef', 'RoleRef') },
  PolicyRule: { 1: f('verbs', 'string', LIST), 2: f('apiGroups', 'string', LIST), 3: f('resources', 'string', LIST), 4: f('resourceNames', 'string', LIST), 5: f('nonResourceURLs', 'string', LIST) },
  Subject: { 1: f('kind', 'string'), 2: f('apiGroup', 'string'), 3: f('name', 'string'), 4: f('namespace', 'string') },
  RoleRef: { 1: f('apiGroup', 'string'), 2: f('kind', 'string'), 3: f('name', 'string') },
  /** A status or spec a client has nothing to write in (it is written as {}, as in JSON). */
  Empty: {},
};

const SCALARS: ReadonlySet<string> = new Set<Scalar>(['string', 'int', 'bool', 'bytes', 'quantity', 'int-or-string', 'time']);

/** The kinds read from protobuf, by apiVersion and kind: those kubectl's `create` subcommands make. */
const KINDS: ReadonlyMap<string, string> = new Map([
  ['apps/v1/Deployment', 'Deployment'],
  ['batch/v1/Job', 'Job'],
  ['v1/Namespace', 'Namespace'],
  ['v1/Service', 'Service'],
  ['v1/ConfigMap', 'ConfigMap'],
  ['v1/Secret', 'Secret'],
  ['v1/ServiceAccount', 'ServiceAccount'],
  ['scheduling.k8s.io/v1/PriorityClass', 'PriorityClass'],
  ['rbac.authorization.k8s.io/v1/Role', 'Role'],
  ['rbac.authorization.k8s.io/v1/ClusterRole', 'ClusterRole'],
  ['rbac.authorization.k8s.io/v1/RoleBinding', 'RoleBinding'],
  ['rbac.authorization.k8s.io/v1/ClusterRoleBinding', 'ClusterRoleBinding'],
]);

/** A protobuf body of a kind not read from protobuf here. */
export class ProtobufKindError extends ProtobufError {}

/** The kinds a protobuf body may hold, as an error names them. */
export const PROTOBUF_KINDS: readonly string[] = [...KINDS.keys()].map((key) => key.slice(key.lastIndexOf('/') + 1));

type Fields = Map<number, Uint8Array[]>;
type Value = string | number | boolean | Value[] | { [key: string]: Value };

function varint(bytes: Uint8Array, start: number): [value: number, next: number] {
  let value = 0;
  for (let offset = start, shift = 0; offset < bytes.length && shift < 64; offset += 1, shift += 7) {
    value += (bytes[offset]! & 0x7f) * 2 ** shift;
    if ((bytes[offset]! & 0x80) === 0) return [value, offset + 1];
  }
  throw new ProtobufError('truncated varint');
}

/** Every field of a message in wire order, numbers (varints) as their value and the rest as bytes. */
function wireFields(bytes: Uint8Array): Array<{ field: number; varint?: number; bytes?: Uint8Array }> {
  const fields: Array<{ field: number; varint?: number; bytes?: Uint8Array }> = [];
  let offset = 0;
  while (offset < bytes.length) {
    const [tag, afterTag] = varint(bytes, offset);
    const field = Math.floor(tag / 8);
    const wireType = tag % 8;
    if (wireType === 0) {
      const [value, next] = varint(bytes, afterTag);
      fields.push({ field, varint: value });
      offset = next;
    } else if (wireType === 2) {
      const [length, start] = varint(bytes, afterTag);
      if (start + length > bytes.length) throw new ProtobufError('truncated field');
      fields.push({ field, bytes: bytes.subarray(start, start + length) });
      offset = start + length;
    } else if (wireType === 1 || wireType === 5) {
      const size = wireType === 1 ? 8 : 4;
      if (afterTag + size > bytes.length) throw new ProtobufError('truncated field');
      fields.push({ field, bytes: bytes.subarray(afterTag, afterTag + size) });
      offset = afterTag + size;
    } else {
      throw new ProtobufError(`unsupported wire type ${wireType}`);
    }
  }
  return fields;
}

/** Signed 64-bit varints (negative int32/int64 values are ten-byte two's complement). */
function signed(value: number): number {
  return value >= 2 ** 63 ? value - 2 ** 64 : value;
}

/** Whether an unknown field holds nothing: zeros, empty bytes, or a message of only such fields. */
function isZero(entry: { varint?: number; bytes?: Uint8Array }): boolean {
  if (entry.varint !== undefined) return entry.varint === 0;
  const bytes = entry.bytes!;
  if (bytes.length === 0) return true;
  try {
    return wireFields(bytes).every(isZero);
  } catch {
    return false;
  }
}

function text(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('utf8');
}

function stringIn(fields: Fields, field: number): string | undefined {
  const value = fields.get(field)?.[0];
  return value === undefined ? undefined : text(value);
}

/** metav1.Time: seconds (1) and nanos (2) since the epoch; the zero time is no time. */
function timeOf(bytes: Uint8Array): string | undefined {
  const [seconds] = wireFields(bytes).filter((entry) => entry.field === 1).map((entry) => signed(entry.varint ?? 0));
  return seconds ? new Date(seconds * 1000).toISOString().replace('.000Z', 'Z') : undefined;
}

/** intstr.IntOrString: type (1: 0 int, 1 string), intVal (2), strVal (3). */
function intOrString(bytes: Uint8Array): number | string {
  const entries = wireFields(bytes);
  const type = entries.find((entry) => entry.field === 1)?.varint ?? 0;
  if (type === 1) return text(entries.find((entry) => entry.field === 3)?.bytes ?? new Uint8Array());
  return signed(entries.find((entry) => entry.field === 2)?.varint ?? 0);
}

function scalarValue(type: Scalar, entry: { varint?: number; bytes?: Uint8Array }, path: string): Value | undefined {
  const bytes = () => {
    if (entry.bytes === undefined) throw new ProtobufError(`${path}: expected a length-delimited field`);
    return entry.bytes;
  };
  switch (type) {
    case 'int':
      if (entry.varint === undefined) throw new ProtobufError(`${path}: expected a number`);
      return signed(entry.varint);
    case 'bool':
      if (entry.varint === undefined) throw new ProtobufError(`${path}: expected a boolean`);
      return entry.varint !== 0;
    case 'string':
      return text(bytes());
    case 'bytes':
      return Buffer.from(bytes()).toString('base64');
    case 'quantity':
      return stringIn(messageFields(bytes()), 1) ?? '0';
    case 'int-or-string':
      return intOrString(bytes());
    case 'time':
      return timeOf(bytes());
  }
}

function isScalar(type: Field['type']): type is Scalar {
  return SCALARS.has(type);
}

function valueOf(field: Field, entry: { varint?: number; bytes?: Uint8Array }, path: string): Value | undefined {
  if (isScalar(field.type)) return scalarValue(field.type, entry, path);
  if (entry.bytes === undefined) throw new ProtobufError(`${path}: expected a message`);
  return decodeMessage(field.type, entry.bytes, path);
}

/** A map entry: key (1), value (2). */
function mapEntry(field: Field, bytes: Uint8Array, path: string): [string, Value] {
  const entries = wireFields(bytes);
  const key = text(entries.find((entry) => entry.field === 1)?.bytes ?? new Uint8Array());
  const valueEntry = entries.find((entry) => entry.field === 2) ?? { field: 2, bytes: new Uint8Array() };
  return [key, valueOf(field, valueEntry, `${path}[${key}]`) ?? ''];
}

/** Go's zero values, left out as JSON's omitempty leaves them out (unless the field is a pointer). */
function isOmitted(field: Field, value: Value | undefined): boolean {
  if (value === undefined) return true;
  if (field.keepZero) return false;
  return value === '' || value === 0 || value === false;
}

function decodeMessage(name: string, bytes: Uint8Array, path: string): { [key: string]: Value } {
  const description = MESSAGES[name]!;
  const object: { [key: string]: Value } = {};
  for (const entry of wireFields(bytes)) {
    const field = description[entry.field];
    if (!field) {
      if (isZero(entry)) continue;
      throw new ProtobufError(`${path}: field ${entry.field} of ${name} is not read from protobuf here; send the object as JSON`);
    }
    const fieldPath = path ? `${path}.${field.name}` : field.name;
    if (field.map) {
      if (entry.bytes === undefined) throw new ProtobufError(`${fieldPath}: expected a map entry`);
      const [key, value] = mapEntry(field, entry.bytes, fieldPath);
      const map = (object[field.name] ??= {}) as { [key: string]: Value };
      map[key] = value;
    } else if (field.repeated) {
      const list = (object[field.name] ??= []) as Value[];
      list.push(valueOf(field, entry, `${fieldPath}[${list.length}]`) ?? '');
    } else {
      const value = valueOf(field, entry, fieldPath);
      if (!isOmitted(field, value)) object[field.name] = value!;
    }
  }
  return object;
}

/** runtime.Unknown's typeMeta (1): apiVersion (1) and kind (2). */
function typeOf(envelope: Uint8Array): { apiVersion: string; kind: string } {
  const typeMeta = messageFields(envelope).get(1)?.[0];
  const fields = typeMeta ? messageFields(typeMeta) : new Map<number, Uint8Array[]>();
  return { apiVersion: stringIn(fields, 1) ?? '', kind: stringIn(fields, 2) ?? '' };
}

/**
 * The JSON object a protobuf body (k8s\0, runtime.Unknown) holds. Throws ProtobufError naming what
 * cannot be read: a kind not in PROTOBUF_KINDS, or a field set that the description does not hold.
 */
export function decodeProtobufObject(body: Uint8Array): Record<string, unknown> {
  const raw = unwrapEnvelope(Buffer.from(body));
  const { apiVersion, kind } = typeOf(Buffer.from(body).subarray(4));
  const message = KINDS.get(`${apiVersion}/${kind}`);
  if (!message) {
    throw new ProtobufKindError(`${kind || 'an object without a kind'} (${apiVersion || 'no apiVersion'}) is not read from protobuf here (only ${PROTOBUF_KINDS.join(', ')}); send it as JSON`);
  }
  return { apiVersion, kind, ...decodeMessage(message, raw, '') };
}
