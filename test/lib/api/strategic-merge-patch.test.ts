import { describe, expect, it } from 'vitest';
import { applyStrategicMergePatch, StrategicMergePatchError } from '../../../lib/api/strategic-merge-patch';

const pod = {
  spec: {
    template: {
      spec: {
        containers: [
          { name: 'app', image: 'app:1', env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }], ports: [{ containerPort: 80 }] },
          { name: 'proxy', image: 'envoy:1' },
        ],
        tolerations: [{ key: 'a', operator: 'Exists' }],
        finalizers: ['x', 'y'],
      },
    },
  },
};

const patched = (patch: object) => applyStrategicMergePatch(pod, { spec: { template: { spec: patch } } }) as typeof pod;

describe('applyStrategicMergePatch', () => {
  it.each<[string, object, unknown]>([
    ['merges containers by name and keeps the others', { containers: [{ name: 'app', image: 'app:2' }] }, [
      { ...pod.spec.template.spec.containers[0], image: 'app:2' },
      pod.spec.template.spec.containers[1],
    ]],
    ['merges nested env by name', { containers: [{ name: 'app', env: [{ name: 'B', value: '3' }, { name: 'C', value: '4' }] }] }, [
      { ...pod.spec.template.spec.containers[0], env: [{ name: 'A', value: '1' }, { name: 'B', value: '3' }, { name: 'C', value: '4' }] },
      pod.spec.template.spec.containers[1],
    ]],
    ['deletes an item with $patch: delete', { containers: [{ name: 'proxy', $patch: 'delete' }] }, [pod.spec.template.spec.containers[0]]],
    ['replaces an item with $patch: replace', { containers: [{ name: 'proxy', image: 'envoy:2', $patch: 'replace' }] }, [
      pod.spec.template.spec.containers[0],
      { name: 'proxy', image: 'envoy:2' },
    ]],
    ['orders items by $setElementOrder', { '$setElementOrder/containers': [{ name: 'proxy' }, { name: 'app' }] }, [
      pod.spec.template.spec.containers[1],
      pod.spec.template.spec.containers[0],
    ]],
  ])('%s', (_, patch, containers) => {
    expect(patched(patch).spec.template.spec.containers).toEqual(containers);
  });

  it("merges a Service's ports by port and a container's by containerPort, as kubectl's patches for them key them", () => {
    const service = { spec: { ports: [{ name: 'http', port: 80, targetPort: 8080 }, { name: 'metrics', port: 9090 }] } };
    expect(
      applyStrategicMergePatch(service, { spec: { '$setElementOrder/ports': [{ port: 9090 }, { port: 80 }], ports: [{ port: 80, targetPort: 8081 }] } }),
    ).toEqual({ spec: { ports: [{ name: 'metrics', port: 9090 }, { name: 'http', port: 80, targetPort: 8081 }] } });
    expect(patched({ containers: [{ name: 'app', ports: [{ containerPort: 443 }] }] }).spec.template.spec.containers[0]!.ports).toEqual([{ containerPort: 80 }, { containerPort: 443 }]);
  });

  it("merges a ServiceAccount's secrets by name", () => {
    const account = { secrets: [{ name: 'a' }, { name: 'b' }] };
    expect(applyStrategicMergePatch(account, { secrets: [{ name: 'b', $patch: 'delete' }, { name: 'c' }] })).toEqual({ secrets: [{ name: 'a' }, { name: 'c' }] });
  });

  it('replaces lists without a merge key whole, and removes members set to null', () => {
    const result = patched({ tolerations: [{ key: 'b', operator: 'Exists' }], finalizers: null });
    expect(result.spec.template.spec.tolerations).toEqual([{ key: 'b', operator: 'Exists' }]);
    expect(result.spec.template.spec).not.toHaveProperty('finalizers');
  });

  it('deletes values from a primitive list and keeps only $retainKeys', () => {
    const result = applyStrategicMergePatch(pod.spec.template.spec, {
      '$deleteFromPrimitiveList/finalizers': ['x'],
      $retainKeys: ['containers', 'finalizers'],
    }) as Record<string, unknown>;
    expect(result.finalizers).toEqual(['y']);
    expect(Object.keys(result).sort()).toEqual(['containers', 'finalizers']);
  });

  it('never changes the prototype through a __proto__ member', () => {
    const result = applyStrategicMergePatch({}, JSON.parse('{"__proto__": {"polluted": true}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ['a patch that is not an object', [1]],
    ['a merged list item without its key', { containers: [{ image: 'x' }] }],
  ])('refuses %s', (_, patch) => {
    expect(() => applyStrategicMergePatch(pod.spec.template.spec, patch)).toThrow(StrategicMergePatchError);
  });
});
