import { parse as parseUuid, v5 as uuidv5 } from 'uuid';

/**
 * The business identity of an operation — the intent, never the attempt (docs/domain.md "Operation key").
 * Parts are case-sensitive strings; `revision` is an integer >= 1 (an amendment is a new revision).
 */
export interface OperationKey {
  readonly tenant: string;
  readonly source: string;
  readonly action: string;
  readonly subject: string;
  readonly revision: number;
}

/** The four string parts, in canonical order. */
export const KEY_TEXT_PARTS = ['tenant', 'source', 'action', 'subject'] as const;
export type KeyTextPart = (typeof KEY_TEXT_PARTS)[number];

/** Longest accepted part, in UTF-8 bytes (docs/domain.md "Operation key"). */
export const MAX_KEY_PART_BYTES = 256;
/** Largest accepted revision (fits a PostgreSQL int4 and every JSON parser exactly). */
export const MAX_REVISION = 2_147_483_647;

/**
 * Namespace of the UUID v5 operationId (docs/api.md "Operation identity"). Fixed forever: changing it
 * would change every operationId.
 */
export const OPERATION_ID_NAMESPACE = '63eeae26-aca5-40f1-b1c3-d04d32d0e365';

/** {@link OPERATION_ID_NAMESPACE} as its 16 bytes, parsed once. */
const NAMESPACE_BYTES = parseUuid(OPERATION_ID_NAMESPACE);

/**
 * UUID v5 (RFC 9562 §5.5) of `name` (UTF-8) under {@link OPERATION_ID_NAMESPACE}. Hands the
 * library bytes: given strings, it re-parses the namespace and encodes the name in JavaScript on
 * every call (docs/decisions.md "Claim path").
 */
export function uuidV5InOperationNamespace(name: string): string {
  return uuidv5(Buffer.from(name, 'utf8'), NAMESPACE_BYTES);
}

/** Prefix of decision streams: `operation-<canonical key>`. */
export const OPERATION_STREAM_PREFIX = 'operation-';
/**
 * Prefix of the companion audit streams (duplicate claims, payload conflicts): written with
 * expected revision `any` so that a storm of duplicates never races the holder's appends.
 * Distinct first segment, so no tenant name can make the two prefixes collide.
 */
export const AUDIT_STREAM_PREFIX = 'audit-operation-';

/** A part made only of RFC 3986 unreserved characters: its encoding is itself. */
const UNRESERVED_ONLY = /^[A-Za-z0-9\-._~]*$/;

/**
 * RFC 3986 percent-encoding of everything outside *unreserved* (ALPHA / DIGIT / "-" / "." / "_" /
 * "~"), over the UTF-8 bytes. encodeURIComponent leaves `!'()*` alone, so those are encoded here.
 */
function percentEncode(part: string): string {
  if (UNRESERVED_ONLY.test(part)) return part;
  return encodeURIComponent(part).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/**
 * Canonical string of a validated key: `tenant/source/action/subject@revision`, each part
 * percent-encoded outside RFC 3986 unreserved. Parts are already NFC (validation refuses others),
 * so the canonical form is exactly what the client sent, encoded.
 */
export function canonicalKey(key: OperationKey): string {
  let canonical = canonicalKeys.get(key);
  if (canonical === undefined) {
    const parts = KEY_TEXT_PARTS.map((p) => percentEncode(key[p]));
    canonical = `${parts.join('/')}@${key.revision}`;
    canonicalKeys.set(key, canonical);
  }
  return canonical;
}

/**
 * Canonical strings and operationIds of key objects already seen (a claim derives its stream
 * name, alias and operationId from one key object several times). Keys are immutable values;
 * entries go with their key object.
 */
const canonicalKeys = new WeakMap<OperationKey, string>();
const operationIds = new WeakMap<OperationKey, string>();

/** The decision stream of an operation: `operation-<canonical key>`. */
export function operationStreamName(key: OperationKey): string {
  return OPERATION_STREAM_PREFIX + canonicalKey(key);
}

/** The companion audit stream of an operation: `audit-operation-<canonical key>`. */
export function auditStreamName(key: OperationKey): string {
  return AUDIT_STREAM_PREFIX + canonicalKey(key);
}

/** operationId = UUID v5 of the canonical key under {@link OPERATION_ID_NAMESPACE} (RFC 9562 §5.5). */
export function operationIdFor(key: OperationKey): string {
  let id = operationIds.get(key);
  if (id === undefined) {
    id = uuidV5InOperationNamespace(canonicalKey(key));
    operationIds.set(key, id);
  }
  return id;
}

/**
 * Inverse of {@link operationStreamName}: the key of a decision stream, or null when the name is
 * not one.
 */
export function keyFromStreamName(streamName: string): OperationKey | null {
  if (!streamName.startsWith(OPERATION_STREAM_PREFIX)) return null;
  const canonical = streamName.slice(OPERATION_STREAM_PREFIX.length);
  const at = canonical.lastIndexOf('@');
  if (at < 0) return null;
  const parts = canonical.slice(0, at).split('/');
  const revision = Number(canonical.slice(at + 1));
  if (parts.length !== 4 || !Number.isInteger(revision) || revision < 1) return null;
  try {
    const [tenant, source, action, subject] = parts.map((p) => decodeURIComponent(p)) as [
      string,
      string,
      string,
      string,
    ];
    return { tenant, source, action, subject, revision };
  } catch {
    return null;
  }
}
