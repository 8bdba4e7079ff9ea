import type { KubeObject } from '../api/decode';

/** The Kubernetes verbs that write; server-side apply is a patch, as Kubernetes authorizes it. */
export type WriteVerb = 'create' | 'update' | 'patch' | 'delete';

/** One write to authorize, before anything of it is written. */
export interface WriteRequest {
  readonly verb: WriteVerb;
  /** The resource as messages name it: the plural, e.g. "propagationpolicies". */
  readonly resource: string;
  /** What would be stored: the decoded body, the result of a patch, or (delete) what is stored now. */
  readonly object: KubeObject;
}
