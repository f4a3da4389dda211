import type { Page } from './routes.js';
import type { ReconciliationItem, ReconciliationTotals } from '@operation-ledger/protocol';

export {
  RECONCILIATION_CATEGORIES,
  type ReconciliationCategory,
  type ReconciliationItem,
  type ReconciliationRun,
  type ReconciliationStatus,
  type ReconciliationTotals,
} from '@operation-ledger/protocol';

/** Query of the create route: scope and how destination rows are read (docs/reconciliation.md). */
export interface ReconciliationOptions {
  readonly action?: string;
  /** `[from, to)`, ISO 8601: the window of first-seen times of the ledger-side categories. */
  readonly from?: string;
  readonly to?: string;
  /** What the reference column holds. @defaultValue 'operationId' */
  readonly match?: 'operationId' | 'providerKey' | 'subject';
  /** `evidence` resolves unknown outcomes found at the destination (operator role). */
  readonly apply?: 'none' | 'evidence';
  /** Column of the destination's record id. @defaultValue 'id' */
  readonly idField?: string;
  /** Column of the reference the worker stored. @defaultValue 'reference' */
  readonly refField?: string;
  readonly refPrefix?: string;
  /** `title,total=/amount/total`: columns compared with the payload (JSON Pointers). */
  readonly compare?: string;
  /** The run waits in `awaiting_source` for {@link ReconciliationApi.uploadSource}. */
  readonly awaitSource?: boolean;
}

/** Query of the source upload: rows carry an operation id, or key templates (`{col}`) build keys. */
export interface SourceIntentOptions {
  readonly operationIdField?: string;
  readonly sourceTemplate?: string;
  readonly actionTemplate?: string;
  readonly subjectTemplate?: string;
  readonly revisionTemplate?: string;
}

/** An export to upload: streamed as it is read, never buffered by the client. */
export interface ReconciliationUpload {
  /** The bytes: a web stream, any async iterable of chunks (a Node `fs.ReadStream`), or text. */
  readonly body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | Uint8Array | string;
  /** `text/csv` or `application/x-ndjson`. */
  readonly contentType: string;
  /** The body is gzip-compressed: sent with `Content-Encoding: gzip`. */
  readonly gzip?: boolean;
  /** Aborts the upload; the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

/** A page of items, with the run's totals and checkpoint. */
export interface ReconciliationItemsPage extends Page<ReconciliationItem> {
  readonly totals: ReconciliationTotals;
}
