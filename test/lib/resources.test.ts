import { describe, expect, it } from 'vitest';
import { QuantityError } from '../../lib/quantity';
import {
  add,
  availableReplicas,
  fitsWithin,
  insufficientResources,
  isEmpty,
  podTemplateRequest,
  ResourceListError,
  scale,
  subtract,
  toResourceList,
  zero,
  type PodSpecLike,
  type ResourceList,
} from '../../lib/resources';

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

const Mi = 1024 ** 2;
const Gi = 1024 ** 3;

describe('toResourceList', () => {
  it('parses each quantity with its resource unit', () => {
    expect(toResourceList({ cpu: '500m', memory: '1Gi', pods: 110, 'nvidia.com/gpu': '2' })).toEqual({
      cpu: 500,
      memory: Gi,
      pods: 110,
      'nvidia.com/gpu': 2,
    });
  });

  it('parses a frozen (stored) map once, handing out one frozen list; a map that may change is parsed every time', () => {
    const stored = Object.freeze({ cpu: '250m' });
    const first = toResourceList(stored);
    expect(toResourceList(stored)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    const open: Record<string, string> = { cpu: '250m' };
    const before = toResourceList(open);
    open.cpu = '1';
    expect(toResourceList(open)).toEqual({ cpu: 1000 });
    expect(before).toEqual({ cpu: 250 });
  });

  it('is empty for a missing map', () => {
    expect(toResourceList(undefined)).toEqual({});
  });

  it('keeps a resource named __proto__ as an entry', () => {
    const list = toResourceList(JSON.parse('{"__proto__": "1"}') as Record<string, string>);
    expect(Object.keys(list)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(list)).toBe(Object.prototype);
  });

  it('names the resource that did not parse', () => {
    const error = thrown(() => toResourceList({ memory: '1Gi', cpu: 'abc' }));
    expect(error).toBeInstanceOf(ResourceListError);
    expect(error).toBeInstanceOf(QuantityError);
    expect(error).toMatchObject({
      message: 'cpu: "abc" is not a valid quantity: expected a number such as "1", "0.5" or ".5"',
      resource: 'cpu',
      path: ['cpu'],
    });
    expect((error as ResourceListError).cause).toBeInstanceOf(QuantityError);
  });
});

describe('arithmetic', () => {
  const a: ResourceList = { cpu: 1000, memory: 2 * Gi };
  const b: ResourceList = { cpu: 1500, pods: 1 };

  it('adds over the union of resources', () => {
    expect(add(a, b)).toEqual({ cpu: 2500, memory: 2 * Gi, pods: 1 });
    expect(add(a, zero)).toEqual(a);
  });

  it('subtracts, going negative', () => {
    expect(subtract(a, b)).toEqual({ cpu: -500, memory: 2 * Gi, pods: -1 });
  });

  it('scales by an integer', () => {
    expect(scale(a, 3)).toEqual({ cpu: 3000, memory: 6 * Gi });
    expect(scale(a, 0)).toEqual({ cpu: 0, memory: 0 });
    expect(() => scale(a, 0.5)).toThrow(RangeError);
  });

  it.each<[ResourceList, boolean]>([
    [{}, true],
    [{ cpu: 0, memory: 0 }, true],
    [{ cpu: 0, memory: 1 }, false],
    [{ cpu: -1 }, false],
  ])('isEmpty(%j) is %s', (list, empty) => {
    expect(isEmpty(list)).toBe(empty);
  });
});

describe('fitsWithin and insufficientResources', () => {
  it.each<[ResourceList, ResourceList, string[]]>([
    [{}, {}, []],
    [{ cpu: 500 }, { cpu: 500 }, []],
    [{ cpu: 501 }, { cpu: 500 }, ['cpu']],
    [{ cpu: 0, memory: 0 }, {}, []],
    [{ 'nvidia.com/gpu': 1 }, { cpu: 4000 }, ['nvidia.com/gpu']],
    [{ pods: 1, memory: Gi, cpu: 100 }, { pods: 0, memory: Mi, cpu: -100 }, ['cpu', 'memory', 'pods']],
    [{ cpu: 100 }, { cpu: 200, memory: -5 }, []],
    [{ constructor: 1 }, {}, ['constructor']],
  ])('%j in %j lacks %j', (request, free, missing) => {
    expect(insufficientResources(request, free)).toEqual(missing);
    expect(fitsWithin(request, free)).toBe(missing.length === 0);
  });
});

describe('podTemplateRequest', () => {
  it.each<[string, PodSpecLike, ResourceList]>([
    ['an empty pod is one pod', {}, { pods: 1 }],
    [
      'sums containers',
      {
        containers: [
          { resources: { requests: { cpu: '250m', memory: '64Mi' } } },
          { resources: { requests: { cpu: '750m', 'nvidia.com/gpu': 1 } } },
          {},
        ],
      },
      { cpu: 1000, memory: 64 * Mi, 'nvidia.com/gpu': 1, pods: 1 },
    ],
    [
      'takes an init container larger than the sum of containers',
      {
        containers: [
          { resources: { requests: { cpu: '100m', memory: '100Mi' } } },
          { resources: { requests: { cpu: '100m', memory: '100Mi' } } },
        ],
        initContainers: [
          { resources: { requests: { cpu: '1', memory: '50Mi' } } },
          { resources: { requests: { cpu: '300m', 'ephemeral-storage': '1Gi' } } },
        ],
      },
      { cpu: 1000, memory: 200 * Mi, 'ephemeral-storage': Gi, pods: 1 },
    ],
    [
      'defaults a request to the limit',
      {
        containers: [
          { resources: { limits: { cpu: '2', memory: '1Gi' }, requests: { cpu: '500m' } } },
          { resources: { limits: { 'nvidia.com/gpu': 1 } } },
        ],
      },
      { cpu: 500, memory: Gi, 'nvidia.com/gpu': 1, pods: 1 },
    ],
    [
      'defaults init container requests to limits too',
      {
        containers: [{ resources: { requests: { memory: '128Mi' } } }],
        initContainers: [{ resources: { limits: { memory: '1Gi' } } }],
      },
      { memory: Gi, pods: 1 },
    ],
    [
      'adds the overhead',
      {
        containers: [{ resources: { requests: { cpu: '1' } } }],
        initContainers: [{ resources: { requests: { cpu: '2' } } }],
        overhead: { cpu: '250m', memory: '120Mi' },
      },
      { cpu: 2250, memory: 120 * Mi, pods: 1 },
    ],
    [
      'counts exactly one pod',
      { containers: [{ resources: { requests: { pods: 3 } } }], overhead: { pods: 2 } },
      { pods: 1 },
    ],
  ])('%s', (_, podSpec, expected) => {
    expect(podTemplateRequest(podSpec)).toEqual(expected);
  });

  it.each<[PodSpecLike, string, (string | number)[]]>([
    [
      { containers: [{}, { resources: { limits: { cpu: 'x' } } }] },
      'containers[1].resources.limits.cpu: "x" is not a valid quantity',
      ['containers', 1, 'resources', 'limits', 'cpu'],
    ],
    [
      { initContainers: [{ resources: { requests: { 'nvidia.com/gpu': '-1' } } }] },
      'initContainers[0].resources.requests[nvidia.com/gpu]: "-1" is not a valid quantity: must not be negative',
      ['initContainers', 0, 'resources', 'requests', 'nvidia.com/gpu'],
    ],
    [{ overhead: { memory: '1Xi' } }, 'overhead.memory: "1Xi" is not a valid quantity', ['overhead', 'memory']],
  ])('locates an invalid quantity: %s', (podSpec, message, path) => {
    const error = thrown(() => podTemplateRequest(podSpec));
    expect(error).toBeInstanceOf(ResourceListError);
    expect(error).toMatchObject({ path, resource: path.at(-1) });
    expect((error as Error).message).toContain(message);
  });
});

describe('availableReplicas', () => {
  const request: ResourceList = { cpu: 500, memory: Gi, pods: 1 };

  it.each<[string, ResourceList, ResourceList, number]>([
    ['cpu bound', { cpu: 2000, memory: 8 * Gi, pods: 110 }, request, 4],
    ['memory bound', { cpu: 8000, memory: 3 * Gi - 1, pods: 110 }, request, 2],
    ['pods bound', { cpu: 8000, memory: 8 * Gi, pods: 3 }, request, 3],
    ['missing resource fits none', { cpu: 8000, memory: 8 * Gi }, request, 0],
    ['negative free fits none', { cpu: -500, memory: 8 * Gi, pods: 110 }, request, 0],
    ['exact fit', { cpu: 500, memory: Gi, pods: 1 }, request, 1],
    ['unrequested resources do not limit', { cpu: 1000, pods: 10 }, { cpu: 100, memory: 0 }, 10],
    ['empty request is unbounded', { cpu: 1000 }, {}, Number.MAX_SAFE_INTEGER],
    ['zero request is unbounded', {}, { cpu: 0 }, Number.MAX_SAFE_INTEGER],
    ['exact near 2^53', { memory: Number.MAX_SAFE_INTEGER }, { memory: 3 }, 3_002_399_751_580_330],
    ['just below a multiple near 2^53', { memory: 2 ** 53 - 2 }, { memory: 2 ** 52 - 1 }, 2],
    ['just short near 2^53', { memory: 2 ** 53 - 3 }, { memory: 2 ** 52 - 1 }, 1],
  ])('%s', (_, free, req, replicas) => {
    expect(availableReplicas(free, req)).toBe(replicas);
  });
});
