import {
  canonicalKey as canonicalKeyOf,
  operationIdFor as operationIdOf,
  type OperationKey,
} from '@operation-ledger/protocol';

/**
 * The business identity of an operation — the intent, never the attempt — with the rules that
 * validate it and the operationId rule, shared with the SDK and the console through
 * `@operation-ledger/protocol` (docs/domain.md "Operation key").
 */
export {
  KEY_TEXT_PARTS,
  MAX_KEY_PART_BYTES,
  MAX_REVISION,
  OPERATION_ID_NAMESPACE,
  type KeyTextPart,
  type OperationKey,
} from '@operation-ledger/protocol';

/** Prefix of decision streams: `operation-<canonical key>`. */
export const OPERATION_STREAM_PREFIX = 'operation-';
/**
 * Prefix of the companion audit streams (duplicate claims, payload conflicts): written with
 * expected revision `any` so that a storm of duplicates never races the holder's appends.
 * Distinct first segment, so no tenant name can make the two prefixes collide.
 */
export const AUDIT_STREAM_PREFIX = 'audit-operation-';

/**
 * Canonical string of a validated key, `tenant/source/action/subject@revision` (the protocol's
 * `canonicalKey`), remembered per key object.
 */
export function canonicalKey(key: OperationKey): string {
  let canonical = canonicalKeys.get(key);
  if (canonical === undefined) {
    canonical = canonicalKeyOf(key);
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

/**
 * operationId = UUID v5 of the canonical key under `OPERATION_ID_NAMESPACE` (RFC 9562 §5.5; the
 * protocol's `operationIdFor`), remembered per key object.
 */
export function operationIdFor(key: OperationKey): string {
  let id = operationIds.get(key);
  if (id === undefined) {
    id = operationIdOf(key);
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
