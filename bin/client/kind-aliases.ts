import { SERVED_RESOURCES, type ServedResource } from '../../lib/http/served-resources';
import { CliError } from './cli-error';

/** Names people type that discovery does not list: `get bindings` as Karmada users say it. */
const EXTRA_ALIASES: Readonly<Record<string, string>> = {
  bindings: 'resourcebindings',
  binding: 'resourcebindings',
};

function names(resource: ServedResource): string[] {
  return [resource.info.plural, resource.info.kind.toLowerCase(), ...resource.shortNames];
}

/**
 * The kind names shell completion offers: every resource's plural and short names, and the names
 * people type that discovery does not list (`bindings`), as kubectl users type them.
 */
export function completableKinds(): string[] {
  const typed = [...SERVED_RESOURCES.flatMap((resource) => [resource.info.plural, ...resource.shortNames]), ...Object.keys(EXTRA_ALIASES)];
  return [...new Set(typed)].sort();
}

/**
 * The resource a command-line kind names, as kubectl resolves it: plural, singular, kind or short
 * name in any case, optionally qualified by its group (`deployments.apps`).
 */
export function resolveKind(text: string): ServedResource {
  const lower = text.toLowerCase();
  const dot = lower.indexOf('.');
  const name = dot < 0 ? lower : lower.slice(0, dot);
  const group = dot < 0 ? undefined : lower.slice(dot + 1);
  const plural = EXTRA_ALIASES[name];
  const found = SERVED_RESOURCES.find(
    (r) => (group === undefined || r.group === group) && (names(r).includes(name) || r.info.plural === plural),
  );
  if (!found) throw new CliError(`error: the server doesn't have a resource type "${text}"`);
  return found;
}

/** The resource serving objects of this apiVersion and kind, if the API serves them. */
export function resourceOf(apiVersion: string, kind: string): ServedResource | undefined {
  return SERVED_RESOURCES.find((r) => r.info.apiVersion === apiVersion && r.info.kind === kind);
}

/** "deployment.apps", or "event" for the core group: how kubectl names a kind in what it prints. */
export function qualifiedKind(resource: ServedResource): string {
  const kind = resource.info.kind.toLowerCase();
  return resource.group ? `${kind}.${resource.group}` : kind;
}
