import { columnsOf, customColumns, type Column, type ListedObject, type TableContext } from '../format/columns';
import type { ApiRequest, ApiResponse } from './api-types';
import { jsonResponse } from './response';
import type { ServedResource } from './served-resources';
import { ApiError } from './status';

/** The Table versions kubectl asks for (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io, ...`). */
const TABLE_VERSIONS = new Set(['v1', 'v1beta1']);

type IncludeObject = 'None' | 'Metadata' | 'Object';

/** The meta.k8s.io Table version the Accept header asks for first, if it asks for a Table at all. */
export function requestedTableVersion(accept: string | undefined): string | undefined {
  for (const range of (accept ?? '').split(',')) {
    const [type, ...parameters] = range.split(';').map((part) => part.trim());
    const parameter = Object.fromEntries(parameters.map((p) => p.split('=').map((side) => side.trim()) as [string, string]));
    if (type === 'application/json' && parameter.as === 'Table' && parameter.g === 'meta.k8s.io' && TABLE_VERSIONS.has(parameter.v ?? '')) return parameter.v;
  }
  return undefined;
}

function includeObjectOf(request: ApiRequest): IncludeObject {
  const value = request.query.includeObject ?? 'Metadata';
  if (value === 'None' || value === 'Metadata' || value === 'Object') return value;
  throw new ApiError('BadRequest', `includeObject: must be None, Metadata or Object, not "${value}"`);
}

/** "PREEMPTION-POLICY" → "Preemption-Policy", as Kubernetes names table columns (kubectl prints them in capitals). */
function columnName(header: string): string {
  return header.toLowerCase().replace(/(^|[\s-])([a-z])/g, (_, separator: string, letter: string) => separator + letter.toUpperCase());
}

function columnDefinition(column: Column<ListedObject>) {
  return {
    name: columnName(column.header),
    type: 'string',
    format: column.header === 'NAME' ? 'name' : '',
    description: '',
    // kubectl shows priority 0 always and the others with -o wide.
    priority: column.wide ? 1 : 0,
  };
}

function rowObject(object: ListedObject & { apiVersion?: string; kind?: string }, include: IncludeObject): unknown {
  if (include === 'Object') return object;
  if (include === 'None') return undefined;
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: object.metadata };
}

/**
 * The objects as the meta.k8s.io Table the request asks for, with the columns `outrank get` prints
 * (lib/format/columns.ts); undefined when it asks for no Table. A watch sends each event's object so.
 */
export function tableFor(request: ApiRequest, resource: ServedResource, objects: readonly ListedObject[], metadata: object, context: TableContext): object | undefined {
  const version = requestedTableVersion(request.headers.accept);
  if (!version) return undefined;
  const include = includeObjectOf(request);
  const columns = resource.custom ? customColumns(resource.custom.version.additionalPrinterColumns) : columnsOf(resource.info.kind);
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${version}`,
    metadata,
    columnDefinitions: columns.map(columnDefinition),
    rows: objects.map((object) => {
      const row = rowObject(object, include);
      return { cells: columns.map((column) => column.value(object, context)), ...(row === undefined ? {} : { object: row }) };
    }),
  };
}

/**
 * A get or list answered as a Table when the client asks for one (kubectl get does), with what its
 * objects' rows show beside them (`contextFor`); otherwise the response as it is.
 */
export async function withTableOutput(
  request: ApiRequest,
  resource: ServedResource,
  response: ApiResponse,
  contextFor: (objects: readonly ListedObject[]) => Promise<TableContext>,
): Promise<ApiResponse> {
  if (response.statusCode !== 200 || !requestedTableVersion(request.headers.accept)) return response;
  const body = JSON.parse(response.body) as { items?: ListedObject[]; metadata?: { resourceVersion?: string; continue?: string } } & ListedObject;
  const objects = body.items ?? [body];
  // A list's ListMeta, its continue token with it: kubectl pages through a Table (500 rows at a time).
  const metadata = body.items ? { resourceVersion: body.metadata?.resourceVersion ?? '', ...(body.metadata?.continue ? { continue: body.metadata.continue } : {}) } : {};
  return jsonResponse(200, tableFor(request, resource, objects, metadata, await contextFor(objects)));
}
