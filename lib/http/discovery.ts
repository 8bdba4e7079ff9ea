import { discoveryVerbs, type ServedResource, type ServedResources } from './served-resources';

/**
 * The Kubernetes release whose API this one follows. kubectl warns when the server is more than one
 * minor version away from it, and v1.32 is the kubectl this project is used with.
 */
const KUBERNETES_MAJOR = '1';
const KUBERNETES_MINOR = '32';

interface GroupVersion {
  readonly groupVersion: string;
  readonly version: string;
}

function groupVersion(resource: ServedResource): GroupVersion {
  return { groupVersion: resource.info.apiVersion, version: resource.version };
}

/** One entry per API group other than the core group, in the order the kinds are declared. */
function namedGroups(served: ServedResources): Array<{ name: string; versions: GroupVersion[]; preferredVersion: GroupVersion }> {
  const groups = new Map<string, GroupVersion[]>();
  for (const resource of served.all) {
    if (!resource.group) continue;
    const versions = groups.get(resource.group) ?? [];
    if (!versions.some((v) => v.version === resource.version)) versions.push(groupVersion(resource));
    groups.set(resource.group, versions);
  }
  return [...groups].map(([name, versions]) => ({ name, versions, preferredVersion: versions[0]! }));
}

/** GET /api: the core group's versions (legacy discovery, which kubectl falls back to). */
export function apiVersions(): object {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [] };
}

/** GET /apis */
export function apiGroupList(served: ServedResources): object {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: namedGroups(served) };
}

/** GET /apis/<group> */
export function apiGroup(served: ServedResources, name: string): object | undefined {
  const group = namedGroups(served).find((g) => g.name === name);
  return group && { kind: 'APIGroup', apiVersion: 'v1', ...group };
}

/** GET /api/v1 and /apis/<group>/<version>: what kubectl maps kinds, plurals and short names with. */
export function apiResourceList(served: ServedResources, group: string, version: string): object | undefined {
  const resources = served.of(group, version);
  if (resources.length === 0) return undefined;
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: resources[0]!.info.apiVersion,
    resources: resources.flatMap((r) => [
      {
        name: r.info.plural,
        singularName: r.custom?.kind.definition.spec.names.singular ?? r.info.kind.toLowerCase(),
        namespaced: r.info.namespaced,
        kind: r.info.kind,
        verbs: discoveryVerbs(r),
        ...(r.shortNames.length > 0 ? { shortNames: r.shortNames } : {}),
        ...(r.categories.length > 0 ? { categories: r.categories } : {}),
      },
      // kubectl scale finds the Scale kind of a resource here.
      ...(r.scalable ? [{ name: `${r.info.plural}/scale`, singularName: '', namespaced: r.info.namespaced, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] }] : []),
      ...(r.hasStatus ? [{ name: `${r.info.plural}/status`, singularName: '', namespaced: r.info.namespaced, kind: r.info.kind, verbs: r.verbs.includes('update') ? ['get', 'patch', 'update'] : ['get'] }] : []),
    ]),
  };
}

/** GET /version: a version.Info; the fields about the Go build do not apply and stay empty. */
export function versionInfo(): object {
  return {
    major: KUBERNETES_MAJOR,
    minor: KUBERNETES_MINOR,
    gitVersion: `v${KUBERNETES_MAJOR}.${KUBERNETES_MINOR}.0-outrank`,
    gitCommit: '',
    gitTreeState: '',
    buildDate: '',
    goVersion: '',
    compiler: '',
    platform: '',
  };
}
