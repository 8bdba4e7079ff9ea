import { CustomKinds } from '../api/custom-kinds';
import { CRD_GROUP, type CustomResourceDefinition } from '../api/custom-resource-definition';
import type { Informer } from './informer';
import type { Informers } from './informers';

/** Per CRD informer: the kinds its definitions register, worked out again only after one of them changed. */
const catalogues = new WeakMap<Informer<CustomResourceDefinition>, { current: CustomKinds | undefined }>();

/**
 * The kinds the stored CustomResourceDefinitions register, as the process's informer of them holds them
 * after one read of its change feed (what changed since the last read; a cold start reads them all).
 * There are as many definitions as kinds of custom resources, whatever the size of the fleet.
 */
export async function customKindsOf(informers: Informers): Promise<CustomKinds> {
  const informer = informers.of<CustomResourceDefinition>(CRD_GROUP, 'CustomResourceDefinition');
  let catalogue = catalogues.get(informer);
  if (!catalogue) {
    const fresh: { current: CustomKinds | undefined } = { current: undefined };
    informer.addHandler(() => (fresh.current = undefined));
    catalogues.set(informer, (catalogue = fresh));
  }
  await informer.sync();
  return (catalogue.current ??= new CustomKinds(informer.values()));
}
