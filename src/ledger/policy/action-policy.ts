import { MAX_LEASE_MS, MIN_LEASE_MS } from '../commands.js';
import { DEFAULT_LEASE_MS } from '../commands.js';
import type { ValidationIssue, Validated } from '../validation-issue.js';

/** What happens to an operation's record once its retention period has passed. */
export type AfterRetention =
  /** Compact the stream to a tombstone that keeps key, fingerprint and outcome: repeats still replay. */
  | 'tombstone'
  /** Compact the same way, but answer repeats 409 `retention-expired` instead of replaying. */
  | 'refuse';

/** Who recovers an Unknown outcome: a recovery worker's lookup, or operators only. */
export type RecoveryMode = 'worker_lookup' | 'operator_only';

/**
 * The policy of one action of one tenant (docs/api.md "Action policies"). Durations in
 * ms. `fingerprintExcludedFields` are RFC 6901 JSON Pointers (e.g. `/meta/traceId`) removed from
 * the payload before fingerprinting — for transport and trace ids that differ between deliveries
 * of one intent; the stored payload keeps them.
 */
export interface ActionPolicy {
  readonly defaultLeaseMs: number;
  readonly maxLeaseMs: number;
  /** Retention of a finished operation's full history, ms; null keeps it forever. */
  readonly retentionMs: number | null;
  readonly afterRetention: AfterRetention;
  /** A human must approve before the first claim proceeds. */
  readonly requireApproval: boolean;
  /** Operators may replay a final failure ("do not replay" actions such as payments: false). */
  readonly replayAllowed: boolean;
  readonly fingerprintExcludedFields: readonly string[];
  readonly recoveryMode: RecoveryMode;
}

/** The policy of an action nobody configured. */
export const DEFAULT_POLICY: ActionPolicy = Object.freeze({
  defaultLeaseMs: DEFAULT_LEASE_MS,
  maxLeaseMs: MAX_LEASE_MS,
  retentionMs: null,
  afterRetention: 'tombstone',
  requireApproval: false,
  replayAllowed: true,
  fingerprintExcludedFields: Object.freeze([]) as readonly string[],
  recoveryMode: 'worker_lookup',
});

/** Shortest retention accepted, ms (one hour): retention is for history, not for live work. */
export const MIN_RETENTION_MS = 3_600_000;
/** A JSON Pointer (RFC 6901): `/`-separated tokens with `~0` and `~1` escapes. */
const JSON_POINTER = /^(\/([^~/]|~[01])*)+$/;

const bool = (v: unknown) => typeof v === 'boolean';
const int = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/**
 * Validates a policy document (missing fields take the defaults). Every problem names its field
 * (`policy.maxLeaseMs`). Unknown fields are refused so a misspelt switch never silently does
 * nothing.
 */
export function parseActionPolicy(input: unknown): Validated<ActionPolicy> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, issues: [{ field: 'policy', message: 'policy must be an object' }] };
  }
  const raw = { ...DEFAULT_POLICY, ...(input as Record<string, unknown>) } as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  const bad = (field: string, message: string) => issues.push({ field: `policy.${field}`, message });
  for (const k of Object.keys(input)) if (!(k in DEFAULT_POLICY)) bad(k, `unknown policy field ${k}`);
  const lease = (f: string) => {
    const v = raw[f];
    if (!int(v) || v < MIN_LEASE_MS || v > MAX_LEASE_MS)
      bad(f, `must be an integer from ${MIN_LEASE_MS} to ${MAX_LEASE_MS} ms`);
  };
  lease('defaultLeaseMs');
  lease('maxLeaseMs');
  if (int(raw.defaultLeaseMs) && int(raw.maxLeaseMs) && raw.defaultLeaseMs > raw.maxLeaseMs) {
    bad('defaultLeaseMs', 'must not exceed maxLeaseMs');
  }
  if (raw.retentionMs !== null && (!int(raw.retentionMs) || raw.retentionMs < MIN_RETENTION_MS)) {
    bad('retentionMs', `must be null (keep forever) or an integer >= ${MIN_RETENTION_MS} ms`);
  }
  if (raw.afterRetention !== 'tombstone' && raw.afterRetention !== 'refuse') {
    bad('afterRetention', 'must be tombstone or refuse');
  }
  if (!bool(raw.requireApproval)) bad('requireApproval', 'must be a boolean');
  if (!bool(raw.replayAllowed)) bad('replayAllowed', 'must be a boolean');
  if (raw.recoveryMode !== 'worker_lookup' && raw.recoveryMode !== 'operator_only') {
    bad('recoveryMode', 'must be worker_lookup or operator_only');
  }
  const fields = raw.fingerprintExcludedFields;
  if (!Array.isArray(fields) || fields.length > 64) {
    bad('fingerprintExcludedFields', 'must be an array of at most 64 JSON Pointers');
  } else {
    fields.forEach((f, i) => {
      if (typeof f !== 'string' || !JSON_POINTER.test(f) || f.length > 512) {
        bad(`fingerprintExcludedFields.${i}`, 'must be a JSON Pointer (RFC 6901) such as /meta/traceId');
      }
    });
  }
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, value: raw as unknown as ActionPolicy };
}
