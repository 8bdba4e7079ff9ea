import { renderTable } from '../../lib/format/table';
import { columnsOf, type Column, type ListedObject, type TableContext } from '../../lib/format/columns';

export interface TableOptions {
  readonly wide: boolean;
  /** With -A on a namespaced kind: a NAMESPACE column first. */
  readonly withNamespace: boolean;
  readonly context: TableContext;
}

export function renderObjects(kind: string, objects: readonly ListedObject[], options: TableOptions): string {
  const columns = columnsOf(kind).filter((c) => options.wide || !c.wide);
  const namespace: readonly Column<ListedObject>[] = options.withNamespace ? [{ header: 'NAMESPACE', value: (o) => o.metadata.namespace ?? '' }] : [];
  const all = [...namespace, ...columns];
  return renderTable(
    all.map((c) => c.header),
    objects.map((o) => all.map((c) => c.value(o, options.context))),
  );
}
