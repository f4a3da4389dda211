/** A parsed W3C `traceparent` header (Trace Context Level 1, §3.2). */
export interface TraceParent {
  /** The header's version, two lowercase hex digits (`00` today). */
  readonly version: string;
  /** 32 lowercase hex digits, not all zero: the trace the caller is part of. */
  readonly traceId: string;
  /** 16 lowercase hex digits, not all zero: the caller's span (our server span's parent). */
  readonly parentId: string;
  /** Trace flags, two hex digits; bit 0 = sampled. */
  readonly flags: string;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * Parses a `traceparent` header per W3C Trace Context §3.2 (later versions' extra fields ignored,
 * §4.3). `null` for a missing or invalid header: never fail a request over its trace context.
 */
export function parseTraceparent(header: string | undefined | null): TraceParent | null {
  const m = TRACEPARENT.exec(header?.trim() ?? '');
  if (!m) return null;
  const [, version, traceId, parentId, flags, extra] = m as unknown as [
    string,
    string,
    string,
    string,
    string,
    string?,
  ];
  if (version === 'ff') return null;
  if (version === '00' && extra !== undefined) return null;
  if (/^0+$/.test(traceId) || /^0+$/.test(parentId)) return null;
  return { version, traceId, parentId, flags };
}

/** Members of a `tracestate` the spec lets a vendor keep (§3.3.1.1: at most 32). */
const MAX_TRACESTATE_MEMBERS = 32;
const TRACESTATE_MEMBER =
  /^[a-z0-9][a-z0-9_\-*/@]{0,255}=[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;

/** A `tracestate` header if well-formed (§3.3), else `null`; carried along, never interpreted. */
export function parseTracestate(header: string | undefined | null): string | null {
  if (!header || header.length > 512) return null;
  const members = header
    .split(',')
    .map((m) => m.trim())
    .filter((m) => m.length > 0);
  if (members.length === 0 || members.length > MAX_TRACESTATE_MEMBERS) return null;
  return members.every((m) => TRACESTATE_MEMBER.test(m)) ? members.join(',') : null;
}
