import { mayDeclareNonPreemptible, nonPreemptibleDeclarations } from './non-preemptible-declarations';
import { priorityClassRefusal } from './priority-class-access';
import type { PriorityClassLookup } from './priority-class-lookup';
import { priorityClassUses } from './priority-class-uses';
import type { TenancySettings } from './tenancy-settings';
import type { WriteRequest, WriteVerb } from './write-request';
import { writeScopeOf } from './write-scope';

export type Decision = { readonly allowed: true } | { readonly allowed: false; readonly message: string };

const ALLOWED: Decision = { allowed: true };

function refusal(principal: string, request: WriteRequest, rule: string): Decision {
  const { namespace, name } = request.object.metadata;
  const where = namespace === undefined ? ' at the cluster scope' : ` in namespace "${namespace}"`;
  return { allowed: false, message: `user "${principal}" cannot ${request.verb} ${request.resource} "${name}"${where}: ${rule}` };
}

function outsideScopeRule(namespaces: ReadonlySet<string>): string {
  return namespaces.size === 0 ? 'the user is neither an admin nor in any tenant' : `not a namespace of this tenant (${[...namespaces].join(', ')})`;
}

/** The rule a write at `namespace` (undefined: the cluster scope) breaks for this scope, or undefined when none. */
function scopeRefusal(scope: ReturnType<typeof writeScopeOf>, namespace: string | undefined): string | undefined {
  if (scope.admin) return undefined;
  if (namespace === undefined) return 'only admins write cluster-scoped objects';
  if (!scope.namespaces.has(namespace)) return outsideScopeRule(scope.namespaces);
  return undefined;
}

function scopeDecision(scope: ReturnType<typeof writeScopeOf>, principal: string, request: WriteRequest): Decision {
  const rule = scopeRefusal(scope, request.object.metadata.namespace);
  return rule === undefined ? ALLOWED : refusal(principal, request, rule);
}

/**
 * Decides the writes of the tenancy model: admins write everything; a tenant writes objects in its
 * namespaces, naming only the PriorityClasses those namespaces may use and declaring work
 * non-preemptible only where the namespace is granted it; cluster-scoped objects
 * (Cluster, PriorityClass, ClusterPropagationPolicy, ClusterResourceBinding) are for admins alone.
 * Reads are not its business: every authenticated caller may read everything. Decisions hold at
 * write time: restricting a class later does not undo the policies and templates already naming it.
 */
export class Authorizer {
  constructor(
    private readonly tenancy: TenancySettings,
    private readonly priorityClasses: PriorityClassLookup,
  ) {}

  async decide(principal: string, request: WriteRequest): Promise<Decision> {
    const scope = writeScopeOf(this.tenancy, principal);
    const scoped = scopeDecision(scope, principal, request);
    if (!scoped.allowed || scope.admin) return scoped;
    const namespace = request.object.metadata.namespace!;
    // Deleting gives nothing a priority, so an object an admin gave a restricted class can still be removed by its tenant.
    if (request.verb === 'delete') return ALLOWED;
    for (const use of priorityClassUses(request.object)) {
      const refused = await priorityClassRefusal(this.tenancy, namespace, use.name, this.priorityClasses);
      if (refused !== undefined) return refusal(principal, request, `${use.field}: ${refused}`);
    }
    const [declaration] = nonPreemptibleDeclarations(request.object);
    if (declaration !== undefined && !mayDeclareNonPreemptible(this.tenancy, namespace)) {
      return refusal(principal, request, `${declaration}: work in namespace "${namespace}" may not be declared non-preemptible (tenancy nonPreemptibleNamespaces)`);
    }
    return ALLOWED;
  }

  /**
   * Whether the principal may write where the object is (admins anywhere, tenants in their namespaces),
   * whatever it says: a patch is judged by this on the object as stored, and in full on the object it makes.
   */
  decideScope(principal: string, request: WriteRequest): Decision {
    return scopeDecision(writeScopeOf(this.tenancy, principal), principal, request);
  }

  /** What the principal may write: everything (an admin), or the objects in some namespaces. */
  scopeOf(principal: string): ReturnType<typeof writeScopeOf> {
    return writeScopeOf(this.tenancy, principal);
  }

  /**
   * Whether the principal may write anything at `namespace` (undefined: the cluster scope), as a
   * SelfSubjectAccessReview asks it: the scope alone, since what an object names (its PriorityClass,
   * non-preemptibility) is judged when it is written.
   */
  decideScopeAt(principal: string, verb: WriteVerb, resource: string, namespace: string | undefined): Decision {
    const rule = scopeRefusal(writeScopeOf(this.tenancy, principal), namespace);
    if (rule === undefined) return ALLOWED;
    const where = namespace === undefined ? ' at the cluster scope' : ` in namespace "${namespace}"`;
    return { allowed: false, message: `user "${principal}" cannot ${verb} ${resource}${where}: ${rule}` };
  }
}
