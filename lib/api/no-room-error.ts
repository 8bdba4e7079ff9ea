import { formatQuantity } from '../quantity';
import type { ResourceList } from '../resources';

/**
 * A placement written through the API that a cluster has no room for (a Kubernetes 403 Forbidden, as
 * kube-apiserver refuses a pod beyond its namespace's ResourceQuota); nothing was written.
 */
export class NoRoomError extends Error {
  constructor(
    readonly kind: string,
    readonly objectName: string,
    readonly cluster: string,
    readonly requested: ResourceList,
    readonly placed: ResourceList,
    readonly capacity: ResourceList,
  ) {
    super(`exceeded room on cluster ${cluster}: requested: ${listed(requested)}, placed: ${listed(placed, requested)}, capacity: ${listed(capacity, requested)}`);
    this.name = 'NoRoomError';
  }
}

/** `cpu=2,memory=1Gi`, of the resources `of` names (all of `list` by default). */
function listed(list: ResourceList, of: ResourceList = list): string {
  return Object.keys(of)
    .sort()
    .map((resource) => `${resource}=${formatQuantity(list[resource] ?? 0, resource)}`)
    .join(',');
}
