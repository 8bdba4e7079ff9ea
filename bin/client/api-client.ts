import packageJson from '../../package.json' with { type: 'json' };
import { readWholeList, type ListAnswer } from '../../lib/api/list-chunks';
import type { ServedResource } from '../../lib/http/served-resources';
import { CliError } from './cli-error';
import { headerOf, HttpTimeoutError, sendHttpRequest, type HttpAnswer } from './http-request';
import type { RequestSigner } from './sigv4-signer';
import { warningTexts } from './warning-header';

/** As kubectl names itself: the server takes the part before the slash as the field manager of a write. */
const USER_AGENT = `outrank/${packageJson.version} (${process.platform}/${process.arch})`;

/** Long enough for a cold Lambda behind API Gateway; short enough that a hung server does not hang the shell. */
const REQUEST_TIMEOUT_MS = 30_000;

/** The reasons kubectl gives a failure whose body is not a Status (a proxy's 502, API Gateway's 403). */
const REASONS_BY_CODE: Readonly<Record<number, string>> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

/** What a Kubernetes Status carries that a client reads. */
interface StatusBody {
  readonly kind?: unknown;
  readonly reason?: unknown;
  readonly message?: unknown;
}

/** A request the server refused; printed as kubectl prints it: `Error from server (NotFound): ...`. */
export class ApiStatusError extends CliError {
  constructor(
    readonly reason: string,
    readonly serverMessage: string,
    readonly code: number,
  ) {
    super(`Error from server (${reason}): ${serverMessage}`);
    this.name = 'ApiStatusError';
  }

  /** The same failure saying what was being done, as kubectl apply does: `error when creating "web.yaml": ...`. */
  during(action: string): ApiStatusError {
    return new ApiStatusError(this.reason, `${action}: ${this.serverMessage}`, this.code);
  }
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiStatusError && error.reason === 'NotFound';
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function statusError(code: number, statusText: string, text: string): ApiStatusError {
  const body = parseJson(text) as StatusBody | undefined;
  const reason = typeof body?.reason === 'string' ? body.reason : (REASONS_BY_CODE[code] ?? `HTTP ${code}`);
  const message = typeof body?.message === 'string' ? body.message : text.trim().slice(0, 500) || statusText;
  return new ApiStatusError(reason, message, code);
}

/** The URL path of a resource's collection, or of one object when `name` is given. */
export function resourcePath(resource: ServedResource, namespace: string | undefined, name?: string): string {
  const groupVersion = resource.group ? `/apis/${resource.group}/${resource.version}` : `/api/${resource.version}`;
  const scope = resource.info.namespaced && namespace !== undefined ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${groupVersion}${scope}/${resource.info.plural}${name === undefined ? '' : `/${encodeURIComponent(name)}`}`;
}

export interface RequestOptions {
  readonly query?: Readonly<Record<string, string | undefined>>;
  readonly body?: unknown;
  /** application/json unless said otherwise (merge patches). */
  readonly contentType?: string;
}

/** Attempts of a request the server answers 429 or 503. */
const MAX_ATTEMPTS = 5;

/** Retry-After in seconds when the server gives it (at most 10 s), else a doubling delay from 250 ms. */
function retryDelayMs(retryAfter: string | null, attempt: number): number {
  const seconds = Number(retryAfter);
  if (retryAfter !== null && Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds, 10) * 1000;
  return 250 * 2 ** (attempt - 1);
}

/** JSON over HTTP to the outrank API, with failures turned into CliErrors worded like kubectl's. */
export class ApiClient {
  private readonly base: string;
  /** The server's clock by the Date header of its last answer (milliseconds), so that ages are judged by its time, not this machine's. */
  serverTime: number | undefined;

  constructor(
    readonly server: string,
    private readonly signer?: RequestSigner,
    /** Told each Warning the server answers a request with, as kubectl prints them. */
    private readonly onWarning?: (text: string) => void,
  ) {
    let url: URL;
    try {
      url = new URL(server);
    } catch {
      throw new CliError(`error: --server must be an http or https URL, not "${server}"`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(`error: --server must be an http or https URL, not "${server}"`);
    // A deployed API may sit under a stage path (https://…/prod): resource paths are appended to it.
    this.base = url.href.replace(/\/+$/, '');
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const url = new URL(this.base + path);
    for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(name, value);
    const hasBody = options.body !== undefined;
    const body = hasBody ? JSON.stringify(options.body) : undefined;
    const unsigned = { accept: 'application/json', 'user-agent': USER_AGENT, ...(hasBody ? { 'content-type': options.contentType ?? 'application/json' } : {}) };
    let response: HttpAnswer;
    for (let attempt = 1; ; attempt += 1) {
      // Signed afresh for each attempt: a signature carries its time.
      const headers = this.signer ? await this.signer.sign({ method, url, headers: unsigned, ...(body === undefined ? {} : { body }) }) : unsigned;
      try {
        response = await sendHttpRequest(url, { method, headers, ...(body === undefined ? {} : { body }), timeoutMs: REQUEST_TIMEOUT_MS });
      } catch (error) {
        if (error instanceof HttpTimeoutError) throw new CliError(`the outrank API at ${this.server} did not answer within ${REQUEST_TIMEOUT_MS / 1000}s`);
        throw new CliError(`cannot reach the outrank API at ${this.server}: start it with "npm start" or pass --server`);
      }
      // Throttled or overloaded, the server wrote nothing: wait as it asks (as kubectl does) and try again.
      if ((response.status !== 429 && response.status !== 503) || attempt >= MAX_ATTEMPTS) break;
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs(headerOf(response, 'retry-after'), attempt)));
    }
    const date = Date.parse(headerOf(response, 'date') ?? '');
    if (!Number.isNaN(date)) this.serverTime = date;
    const { text } = response;
    const location = headerOf(response, 'location');
    if (response.status >= 300 && response.status < 400 && location !== null) {
      throw new CliError(`error: ${this.server} redirects ${method} ${path} to ${location}: pass the server that answers as --server`);
    }
    for (const warning of warningTexts(headerOf(response, 'warning'))) this.onWarning?.(warning);
    if (response.status < 200 || response.status > 299) throw statusError(response.status, response.statusText, text);
    const answer = parseJson(text);
    if (answer === undefined) throw new CliError(`error: ${this.server} did not answer ${method} ${path} with JSON: is it the outrank API?`);
    return answer as T;
  }

  get<T>(path: string, query?: RequestOptions['query']): Promise<T> {
    return this.request<T>('GET', path, query ? { query } : {});
  }

  /** Every item of a list, LIST_CHUNK at a time (readWholeList), as kubectl reads one. */
  list<T>(path: string, query: RequestOptions['query'] = {}): Promise<ListAnswer<T>> {
    return readWholeList((chunk) => this.get<ListAnswer<T>>(path, { ...query, ...chunk }));
  }
}
