/**
 * Strategic merge patch, as kubectl sends it for workload templates (client-side `kubectl apply`,
 * `kubectl edit`): like a JSON merge patch, except that lists of named items merge item by item on
 * their merge key, and the patch may carry $patch, $setElementOrder, $retainKeys and
 * $deleteFromPrimitiveList directives. The merge keys are those of the pod template's lists, a
 * Service's ports and a ServiceAccount's secrets.
 */
import { setMember } from './merge-patch';
import { isPlainObject } from './plain-object';

/** By field name; `ports` are a container's (by containerPort) or a Service's (by port), told apart by the key their items carry. */
const MERGE_KEYS: Readonly<Record<string, string | readonly string[]>> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  env: 'name',
  volumes: 'name',
  imagePullSecrets: 'name',
  resourceClaims: 'name',
  ports: ['containerPort', 'port'],
  secrets: 'name',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
  hostAliases: 'ip',
  topologySpreadConstraints: 'topologyKey',
};

/** The merge key of a list field, for these items (of a patch, or of a $setElementOrder list). */
function mergeKeyOf(field: string, items: readonly unknown[]): string | undefined {
  const keys = MERGE_KEYS[field];
  if (keys === undefined || typeof keys === 'string') return keys;
  return keys.find((key) => items.length > 0 && items.every((item) => isPlainObject(item) && key in item)) ?? keys[0];
}

const SET_ELEMENT_ORDER = '$setElementOrder/';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList/';

type JsonObject = Record<string, unknown>;

export class StrategicMergePatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StrategicMergePatchError';
  }
}

function mergeList(original: unknown, patch: unknown[], mergeKey: string): unknown[] {
  const result = Array.isArray(original) ? [...original] : [];
  for (const item of patch) {
    if (!isPlainObject(item) || !(mergeKey in item)) {
      throw new StrategicMergePatchError(`every item of a list merged on "${mergeKey}" must be an object with "${mergeKey}"`);
    }
    const index = result.findIndex((existing) => isPlainObject(existing) && existing[mergeKey] === item[mergeKey]);
    if (item.$patch === 'delete') {
      if (index >= 0) result.splice(index, 1);
    } else if (item.$patch === 'replace') {
      const { $patch: _directive, ...replacement } = item;
      if (index >= 0) result[index] = replacement;
      else result.push(replacement);
    } else if (index >= 0) {
      result[index] = mergeObject(result[index], item);
    } else {
      result.push(mergeObject(undefined, item));
    }
  }
  return result;
}

function orderList(list: unknown[], order: unknown, mergeKey: string | undefined): unknown[] {
  if (!Array.isArray(order)) return list;
  const keyOf = (item: unknown) => (mergeKey && isPlainObject(item) ? item[mergeKey] : item);
  const wanted = order.map(keyOf);
  const rank = (item: unknown) => {
    const position = wanted.indexOf(keyOf(item));
    return position < 0 ? wanted.length : position;
  };
  return [...list].sort((a, b) => rank(a) - rank(b));
}

function mergeObject(original: unknown, patch: JsonObject): JsonObject {
  if (patch.$patch === 'delete') return {};
  const { $patch: directive, $retainKeys: retainKeys, ...members } = patch;
  const result: JsonObject = {};
  if (directive !== 'replace' && isPlainObject(original)) for (const [key, value] of Object.entries(original)) setMember(result, key, value);

  for (const [key, value] of Object.entries(members)) {
    if (key.startsWith(SET_ELEMENT_ORDER)) continue;
    if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
      const field = key.slice(DELETE_FROM_PRIMITIVE_LIST.length);
      const removed = Array.isArray(value) ? value : [];
      if (Array.isArray(result[field])) setMember(result, field, (result[field] as unknown[]).filter((item) => !removed.includes(item)));
      continue;
    }
    if (value === null) {
      delete result[key];
    } else if (Array.isArray(value) && mergeKeyOf(key, value)) {
      setMember(result, key, mergeList(result[key], value, mergeKeyOf(key, value)!));
    } else if (isPlainObject(value)) {
      setMember(result, key, mergeObject(result[key], value));
    } else {
      setMember(result, key, value);
    }
  }

  for (const [key, order] of Object.entries(members)) {
    if (!key.startsWith(SET_ELEMENT_ORDER)) continue;
    const field = key.slice(SET_ELEMENT_ORDER.length);
    if (Array.isArray(result[field])) setMember(result, field, orderList(result[field] as unknown[], order, mergeKeyOf(field, Array.isArray(order) ? order : [])));
  }
  if (Array.isArray(retainKeys)) {
    for (const key of Object.keys(result)) if (!retainKeys.includes(key)) delete result[key];
  }
  return result;
}

/** Applies a strategic merge patch to an object; a patch that is not an object replaces nothing and is refused. */
export function applyStrategicMergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) throw new StrategicMergePatchError('a strategic merge patch must be a JSON object');
  return mergeObject(target, patch);
}
