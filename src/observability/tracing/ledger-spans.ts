import { type Attributes, type Span, SpanStatusCode, trace } from '@opentelemetry/api';

/** Name of the tracer of the ledger's own spans (the instrumentation scope in a trace view). */
export const LEDGER_TRACER = 'operation-ledger';

/** The ledger's own spans, nested HTTP server span → command → decide → append. */
export const LEDGER_SPANS = {
  /** One command handled end to end (load, decide, append, retries): the handler's span. */
  command: 'ledger.command',
  /** The pure decision over the folded stream (no I/O). */
  decide: 'ledger.decide',
  /** One optimistic-concurrency append to the operation's stream. */
  append: 'ledger.append',
} as const;

/** Attribute keys of the `ledger.*` spans (OpenTelemetry attribute naming: dotted lower case). */
export const LEDGER_ATTRIBUTES = {
  operationId: 'ledger.operation_id',
  tenant: 'ledger.tenant',
  action: 'ledger.action',
  /** The command's name: `claim`, `confirm`, `resolve`, … */
  command: 'ledger.command',
  /** The expected revision of the append: a number, or `no_stream` / `any`. */
  expectedRevision: 'ledger.expected_revision',
  /** What the command answered: `acquired`, `replayed`, `in_progress`, `conflict`, `refused`, … */
  outcome: 'ledger.outcome',
  /** How many WrongExpectedVersion refusals the command retried after. */
  wrongExpectedVersionRetries: 'ledger.wrong_expected_version_retries',
  /** Events appended by the append. */
  eventCount: 'ledger.event_count',
} as const;

/** Values of the attributes of a `ledger.*` span; absent ones are not set. */
export interface LedgerSpanFields {
  readonly operationId?: string;
  readonly tenant?: string;
  readonly action?: string;
  readonly command?: string;
  readonly expectedRevision?: bigint | number | string;
  readonly outcome?: string;
  readonly wrongExpectedVersionRetries?: number;
  readonly eventCount?: number;
}

/** {@link LedgerSpanFields} as span attributes (bigint revisions become numbers when safe, else text). */
export function ledgerAttributes(fields: LedgerSpanFields): Attributes {
  const attributes: Attributes = {};
  for (const [field, key] of Object.entries(LEDGER_ATTRIBUTES)) {
    const value = fields[field as keyof LedgerSpanFields];
    if (value === undefined) continue;
    attributes[key] =
      typeof value === 'bigint'
        ? value <= BigInt(Number.MAX_SAFE_INTEGER)
          ? Number(value)
          : value.toString()
        : value;
  }
  return attributes;
}

/** What {@link withLedgerSpan} hands to `fn`: the span and a setter of its ledger attributes. */
export interface LedgerSpanScope {
  readonly span: Span;
  /** Adds or overwrites attributes, e.g. the outcome once known, the retries after each race. */
  set(fields: LedgerSpanFields): void;
}

/**
 * Runs `fn` inside a new active span `name` with `fields` as attributes, so spans started by `fn`
 * are its children; a thrown error is recorded and rethrown unchanged. With the SDK off this is a
 * plain call of `fn`.
 */
export async function withLedgerSpan<T>(
  name: string,
  fields: LedgerSpanFields,
  fn: (scope: LedgerSpanScope) => Promise<T> | T,
): Promise<T> {
  return trace.getTracer(LEDGER_TRACER).startActiveSpan(name, async (span) => {
    const scope = scopeOf(span, fields);
    try {
      return await fn(scope);
    } catch (error) {
      throw failed(span, error);
    } finally {
      span.end();
    }
  });
}

/** {@link withLedgerSpan} for the pure decision, which must not become asynchronous to be traced. */
export function withLedgerSpanSync<T>(
  name: string,
  fields: LedgerSpanFields,
  fn: (scope: LedgerSpanScope) => T,
): T {
  return trace.getTracer(LEDGER_TRACER).startActiveSpan(name, (span) => {
    const scope = scopeOf(span, fields);
    try {
      return fn(scope);
    } catch (error) {
      throw failed(span, error);
    } finally {
      span.end();
    }
  });
}

/** Attributes are built only for a recording span (docs/decisions.md "Claim path"). */
function scopeOf(span: Span, fields: LedgerSpanFields): LedgerSpanScope {
  if (span.isRecording()) span.setAttributes(ledgerAttributes(fields));
  return { span, set: (f) => span.isRecording() && span.setAttributes(ledgerAttributes(f)) };
}

/** Records `error` on `span` (an exception event, status ERROR) and returns it for rethrowing. */
function failed(span: Span, error: unknown): unknown {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : undefined });
  return error;
}
