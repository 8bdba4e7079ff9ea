import { parseQuantity, QuantityError, resourceUnit } from './quantity';

/** Resource name → amount in the units parseQuantity returns (millicores for cpu, base units otherwise). */
export type ResourceList = Readonly<Record<string, number>>;

/** Resource name → quantity as written in a manifest. */
export type QuantityMap = Record<string, string | number>;

export interface ContainerLike {
  resources?: { requests?: QuantityMap; limits?: QuantityMap };
}

export interface PodSpecLike {
  containers?: readonly ContainerLike[];
  initContainers?: readonly ContainerLike[];
  overhead?: QuantityMap;
}

export type FieldPath = readonly (string | number)[];

/**
 * A quantity in a resource list did not parse. `path` leads from the object given to the failing
 * function to the quantity (`['cpu']` from toResourceList, `['containers', 0, 'resources', 'limits', 'cpu']`
 * from podTemplateRequest), so a caller can prefix it with where that object sits in a manifest.
 * The message starts with the path, and `cause` is the QuantityError.
 */
export class ResourceListError extends QuantityError {
  override name = 'ResourceListError';
  readonly resource: string;

  constructor(
    readonly path: FieldPath,
    override readonly cause: QuantityError,
  ) {
    super(`${formatPath(path)}: ${cause.message}`, { cause });
    this.resource = String(path.at(-1));
  }
}

export const zero: ResourceList = Object.freeze({});

/** Resource lists of the frozen maps read so far: a stored map never changes, and every version of a binding shares its request's. */
const parsedLists = new WeakMap<QuantityMap, ResourceList>();

/** Parses every quantity with its resource's unit; throws ResourceListError. */
export function toResourceList(map: QuantityMap | undefined): ResourceList {
  if (map === undefined) return zero;
  const parsed = parsedLists.get(map);
  if (parsed) return parsed;
  const list = parseResourceList(map);
  if (Object.isFrozen(map)) parsedLists.set(map, Object.freeze(list));
  return list;
}

function parseResourceList(map: QuantityMap): ResourceList {
  // fromEntries defines own properties, so a resource named "__proto__" stays an entry.
  return Object.fromEntries(
    Object.entries(map).map(([resource, quantity]) => {
      try {
        return [resource, parseQuantity(quantity, resourceUnit(resource))];
      } catch (error) {
        if (error instanceof QuantityError) throw new ResourceListError([resource], error);
        throw error;
      }
    }),
  );
}

export function add(a: ResourceList, b: ResourceList): ResourceList {
  return combine(a, b, (x, y) => x + y);
}

/** a − b for every resource in either; negative where b exceeds a (overcommitted capacity). */
export function subtract(a: ResourceList, b: ResourceList): ResourceList {
  return combine(a, b, (x, y) => x - y);
}

/** Multiplies every amount by an integer factor, such as a replica count. */
export function scale(list: ResourceList, factor: number): ResourceList {
  if (!Number.isSafeInteger(factor)) throw new RangeError(`scale factor ${factor} is not a safe integer`);
  const result: Record<string, number> = {};
  for (const resource of Object.keys(list)) setAmount(result, resource, list[resource]! * factor);
  return result;
}

/**
 * Adds `list` × `factor` into `into`, in place: running totals (what a snapshot placed on a cluster) change
 * with every decision, and a new object per change would be garbage at once.
 */
export function accumulate(into: Record<string, number>, list: ResourceList, factor: number): void {
  if (!Number.isSafeInteger(factor)) throw new RangeError(`scale factor ${factor} is not a safe integer`);
  for (const resource of Object.keys(list)) setAmount(into, resource, amountOf(into, resource) + list[resource]! * factor);
}

export function isEmpty(list: ResourceList): boolean {
  return Object.values(list).every((amount) => amount === 0);
}

/** Whether every positive request fits in what is free; a resource missing from `free` has none free. */
export function fitsWithin(request: ResourceList, free: ResourceList): boolean {
  return insufficientResources(request, free).length === 0;
}

/** Names of the requested resources that do not fit in what is free, sorted. */
export function insufficientResources(request: ResourceList, free: ResourceList): string[] {
  return Object.entries(request)
    .filter(([resource, amount]) => amount > 0 && amount > amountOf(free, resource))
    .map(([resource]) => resource)
    .sort();
}

/**
 * One replica's request as Kubernetes computes a pod's effective request: per resource, the larger of
 * the containers' sum and the largest init container (init containers run one at a time, before the
 * others), plus the pod overhead, plus `pods: 1` so that capacity checks count pods.
 * Restartable (sidecar) init containers are not modelled: they are treated as ordinary init containers.
 */
export function podTemplateRequest(podSpec: PodSpecLike): ResourceList {
  const containers = (podSpec.containers ?? []).map((container, index) =>
    containerRequest(container, ['containers', index]),
  );
  const initContainers = (podSpec.initContainers ?? []).map((container, index) =>
    containerRequest(container, ['initContainers', index]),
  );
  const overhead = withPath(['overhead'], () => toResourceList(podSpec.overhead));

  const running = containers.reduce(add, zero);
  const starting = initContainers.reduce((a, b) => combine(a, b, Math.max), zero);
  const request = add(combine(running, starting, Math.max), overhead);
  return { ...request, pods: 1 };
}

/**
 * How many more replicas of `request` fit in `free`: the least, over resources requested, of whole
 * requests per free amount. A missing or negative free amount fits none; a request for nothing is
 * unbounded (Number.MAX_SAFE_INTEGER).
 */
export function availableReplicas(free: ResourceList, request: ResourceList): number {
  let replicas = Number.MAX_SAFE_INTEGER;
  // Keys rather than entries: this runs for every cluster of every decision, and entries allocate.
  for (const resource of Object.keys(request)) {
    const amount = request[resource]!;
    if (amount <= 0) continue;
    const available = Math.max(amountOf(free, resource), 0);
    // Subtracting the remainder first keeps the division exact for amounts near 2^53.
    replicas = Math.min(replicas, (available - (available % amount)) / amount);
  }
  return replicas;
}

/** Kubernetes defaults a container's request to its limit for resources it limits but does not request. */
function containerRequest(container: ContainerLike, path: FieldPath): ResourceList {
  const resources = container.resources;
  const requests = withPath([...path, 'resources', 'requests'], () => toResourceList(resources?.requests));
  const limits = withPath([...path, 'resources', 'limits'], () => toResourceList(resources?.limits));
  return { ...limits, ...requests };
}

function withPath<T>(prefix: FieldPath, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof ResourceListError) throw new ResourceListError([...prefix, ...error.path], error.cause);
    throw error;
  }
}

/** Every resource of `a`, then those only in `b`; written without intermediate sets or entry arrays (a hot path). */
function combine(a: ResourceList, b: ResourceList, merge: (x: number, y: number) => number): ResourceList {
  const result: Record<string, number> = {};
  for (const resource of Object.keys(a)) setAmount(result, resource, merge(a[resource] ?? 0, amountOf(b, resource)));
  for (const resource of Object.keys(b)) {
    if (!Object.hasOwn(result, resource)) setAmount(result, resource, merge(0, b[resource] ?? 0));
  }
  return result;
}

/** Defines the entry, so that a resource named "__proto__" stays an entry instead of replacing the prototype. */
function setAmount(list: Record<string, number>, resource: string, amount: number): void {
  if (resource === '__proto__') Object.defineProperty(list, resource, { value: amount, enumerable: true, writable: true, configurable: true });
  else list[resource] = amount;
}

/**
 * A resource's amount; a missing one is 0. Object.prototype has no number-valued members, so a number
 * read here is the list's own amount even for names like `constructor` (and it costs no hasOwn call:
 * preemption reads thousands of amounts per decision).
 */
export function amountOf(list: ResourceList, resource: string): number {
  const amount = list[resource];
  return typeof amount === 'number' ? amount : 0;
}

/** `containers[0].resources.limits.cpu`; resource names that are not plain words go in brackets. */
function formatPath(path: FieldPath): string {
  return path
    .map((part, index) => {
      if (typeof part === 'number') return `[${part}]`;
      if (index === 0) return part;
      return /^[A-Za-z_][\w-]*$/.test(part) ? `.${part}` : `[${part}]`;
    })
    .join('');
}
