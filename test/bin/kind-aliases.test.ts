import { describe, expect, it } from 'vitest';
import { completableKinds, qualifiedKind, resolveKind } from '../../bin/client/kind-aliases';

describe('resolveKind', () => {
  it.each([
    ['pc', 'priorityclasses'],
    ['PriorityClass', 'priorityclasses'],
    ['rb', 'resourcebindings'],
    ['bindings', 'resourcebindings'],
    ['ResourceBinding', 'resourcebindings'],
    ['crb', 'clusterresourcebindings'],
    ['pp', 'propagationpolicies'],
    ['cpp', 'clusterpropagationpolicies'],
    ['deploy', 'deployments'],
    ['deployments.apps', 'deployments'],
    ['sts', 'statefulsets'],
    ['job', 'jobs'],
    ['ev', 'events'],
    ['events', 'events'],
    ['clusters', 'clusters'],
    ['Cluster', 'clusters'],
  ])('%s is %s', (text, plural) => {
    expect(resolveKind(text).info.plural).toBe(plural);
  });

  it('refuses names it does not serve, and a known name in another group', () => {
    expect(() => resolveKind('pods')).toThrow('the server doesn\'t have a resource type "pods"');
    expect(() => resolveKind('deployments.batch')).toThrow('doesn\'t have a resource type');
  });

  it('names kinds as kubectl prints them', () => {
    expect(qualifiedKind(resolveKind('deploy'))).toBe('deployment.apps');
    expect(qualifiedKind(resolveKind('ev'))).toBe('event');
  });

  it('offers for completion only names it resolves: plurals, short names and bindings', () => {
    const names = completableKinds();
    expect(names).toEqual(expect.arrayContaining(['bindings', 'resourcebindings', 'rb', 'crb', 'pp', 'cpp', 'pc', 'deploy', 'sts', 'ev']));
    for (const name of names) expect(() => resolveKind(name)).not.toThrow();
  });
});
