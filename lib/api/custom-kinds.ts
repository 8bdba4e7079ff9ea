import { BUILT_IN_KINDS, type KindInfo } from './kinds';
import { storageVersion, versionSchemaOf, type CustomResourceDefinition, type CustomResourceVersion } from './custom-resource-definition';
import { apiGroupOf } from './resource-template';

/** A kind a stored CustomResourceDefinition registers, as outrank serves it. */
export interface CustomKind {
  readonly definition: CustomResourceDefinition;
  readonly group: string;
  readonly kind: string;
  readonly plural: string;
  readonly namespaced: boolean;
  /** The versions served (served: true), the storage version first. */
  readonly versions: readonly CustomResourceVersion[];
}

/** A kind at one of its served versions: what a request or an object's apiVersion names. */
export interface CustomKindVersion {
  readonly kind: CustomKind;
  readonly version: CustomResourceVersion;
  readonly info: KindInfo;
  /** The openAPIV3Schema objects of this version are validated by. */
  readonly schema: Record<string, unknown> | undefined;
}

function servedVersions(definition: CustomResourceDefinition): CustomResourceVersion[] {
  const storage = storageVersion(definition);
  return [storage, ...definition.spec.versions.filter((version) => version !== storage)].filter((version) => version.served);
}

/**
 * The kinds the stored CustomResourceDefinitions register. A definition whose kind or plural another
 * already takes in its group — a kind outrank serves itself (PropagationPolicy's own CRD, applied from
 * a Karmada installation, say), or an earlier definition by name — is stored but not served, as
 * kube-apiserver leaves a definition whose names conflict unaccepted.
 */
export class CustomKinds {
  static readonly NONE = new CustomKinds([]);

  private readonly byGroup = new Map<string, CustomKind[]>();

  constructor(definitions: Iterable<CustomResourceDefinition>) {
    const sorted = [...definitions].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0));
    for (const definition of sorted) {
      const { group, names, scope } = definition.spec;
      const taken = [...BUILT_IN_KINDS.filter((info) => apiGroupOf(info.apiVersion) === group), ...(this.byGroup.get(group) ?? [])];
      if (taken.some((other) => other.kind === names.kind || other.plural === names.plural)) continue;
      const versions = servedVersions(definition);
      if (versions.length === 0) continue;
      const kinds = this.byGroup.get(group) ?? [];
      kinds.push({ definition, group, kind: names.kind, plural: names.plural, namespaced: scope === 'Namespaced', versions });
      this.byGroup.set(group, kinds);
    }
  }

  /** Every kind served, by group in order of definition name. */
  all(): CustomKind[] {
    return [...this.byGroup.values()].flat();
  }

  /** The kind an object of this apiVersion and kind is, if a definition registers it (at any version: `version` is then the one named, if served). */
  find(apiVersion: string, kind: string): (Omit<CustomKindVersion, 'version' | 'info' | 'schema'> & Partial<CustomKindVersion>) | undefined {
    const group = apiGroupOf(apiVersion);
    const found = this.byGroup.get(group)?.find((candidate) => candidate.kind === kind);
    if (!found) return undefined;
    const version = found.versions.find((candidate) => `${group}/${candidate.name}` === apiVersion);
    return version ? atVersion(found, version) : { kind: found };
  }

  /** The kind a URL names by its plural, at a served version. */
  byPlural(group: string, version: string, plural: string): CustomKindVersion | undefined {
    const found = this.byGroup.get(group)?.find((candidate) => candidate.plural === plural);
    const served = found?.versions.find((candidate) => candidate.name === version);
    return found && served ? atVersion(found, served) : undefined;
  }

  /** Every kind at every version it is served at. */
  versions(): CustomKindVersion[] {
    return this.all().flatMap((kind) => kind.versions.map((version) => atVersion(kind, version)));
  }
}

function atVersion(kind: CustomKind, version: CustomResourceVersion): CustomKindVersion {
  return {
    kind,
    version,
    info: { apiVersion: `${kind.group}/${version.name}`, kind: kind.kind, plural: kind.plural, namespaced: kind.namespaced },
    schema: versionSchemaOf(version),
  };
}
