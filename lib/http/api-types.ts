import type { Authorizer } from '../auth/authorizer';
import type { SchedulerConfig } from '../config';
import type { ConsoleAssets } from './console-assets';
import type { WhatIfSlots } from './what-if-slots';
import type { ObjectService } from '../controllers/object-service';
import type { Clock } from '../ports/clock';
import type { EventLog } from '../ports/event-log';
import type { ObservedQueue } from '../ports/message-queue';
import type { ObjectStore, StoreTimeoutError } from '../ports/object-store';

/** One HTTP request as every transport (API Gateway, node:http) can give it. */
export interface ApiRequest {
  readonly method: string;
  /** The URL path without the query string, e.g. /apis/apps/v1/namespaces/default/deployments. */
  readonly path: string;
  readonly query: Readonly<Record<string, string | undefined>>;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string | undefined;
  /** The body as it arrived, for the media types that are not text (protobuf). */
  readonly bodyBytes?: Uint8Array;
}

export interface ApiResponse {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Who is calling, and the tenancy model deciding what they may write. */
export interface ApiAccess {
  /** The caller's principal as the transport authenticated it; undefined when it carried none (401). */
  readonly identity: string | undefined;
  readonly authorizer: Authorizer;
}

export interface ApiDependencies {
  /** The write path: every create, replace, patch and delete goes through it. */
  readonly objects: ObjectService;
  /** Reads (get, list). */
  readonly store: ObjectStore;
  readonly events: EventLog;
  /** Every queue of the system, for /outrank/v1/queues; without them that path is not served. */
  readonly queues?: readonly ObservedQueue[];
  /** The web console's files, served at / and /console/ to whoever may read the API; none when absent. */
  readonly console?: ConsoleAssets;
  /** The scheduler's settings: its bands are reported with the queue depths, and a what-if runs with them. */
  readonly config?: SchedulerConfig;
  /** The server's clock, for the ages of table output; the system clock when absent. */
  readonly clock?: Clock;
  /**
   * Told about errors answered with 500 InternalError, whose details the response withholds, so a
   * transport can log them.
   */
  readonly onInternalError?: (error: unknown) => void;
  /** Told when the object store did not answer (the request was answered 503 or 504), so a transport can count it. */
  readonly onStoreTimeout?: (error: StoreTimeoutError) => void;
  /**
   * With tenancy configured: every request must carry an identity, and every write is authorized
   * before anything is written. Absent, every caller may write everything, as before tenancy existed.
   * Reads are never restricted.
   */
  readonly access?: ApiAccess;
  /** The caller's principal as the transport knows it, with or without tenancy: what SelfSubjectReview answers. */
  readonly caller?: string;
  /** The process's what-if slots, shared by its requests (429 when all are taken); absent, what-ifs are not limited. */
  readonly whatIfSlots?: WhatIfSlots;
}
