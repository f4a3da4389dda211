/**
 * The operationId of a key, computed in the browser exactly as the ledger does (docs/api.md
 * "Operation identity"): UUID v5 (RFC 9562 §5.5: SHA-1 of namespace bytes + UTF-8 name, version
 * and variant bits set) of the canonical key `tenant/source/action/subject@revision`, each part
 * percent-encoded outside RFC 3986 unreserved, under the ledger's fixed namespace.
 */
export const OPERATION_ID_NAMESPACE = '63eeae26-aca5-40f1-b1c3-d04d32d0e365';

/** A key as operators type it; `revision` defaults to 1. */
export interface KeyInput {
  readonly tenant: string;
  readonly source: string;
  readonly action: string;
  readonly subject: string;
  readonly revision?: number;
}

/** RFC 3986 percent-encoding of everything outside unreserved (`encodeURIComponent` keeps `!'()*`). */
function percentEncode(part: string): string {
  return encodeURIComponent(part).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** `tenant/source/action/subject@revision`, each part NFC-normalised and percent-encoded. */
export function canonicalKey(key: KeyInput): string {
  const parts = [key.tenant, key.source, key.action, key.subject].map((p) =>
    percentEncode(p.normalize('NFC')),
  );
  return `${parts.join('/')}@${key.revision ?? 1}`;
}

function uuidBytes(uuid: string): Uint8Array {
  const hex = uuid.replace(/-/g, '');
  return Uint8Array.from({ length: 16 }, (_, i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16));
}

/**
 * UUID v5 of `name` under `namespace`, with SubtleCrypto's SHA-1.
 * @throws Error when SubtleCrypto is missing (pages not in a secure context: HTTPS or localhost).
 */
export async function uuidV5(name: string, namespace = OPERATION_ID_NAMESPACE): Promise<string> {
  if (!globalThis.crypto?.subtle) {
    throw new Error('computing an operationId needs a secure context (HTTPS or 127.0.0.1/localhost)');
  }
  const nameBytes = new TextEncoder().encode(name);
  const input = new Uint8Array(16 + nameBytes.length);
  input.set(uuidBytes(namespace));
  input.set(nameBytes, 16);
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-1', input)).slice(0, 16);
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = [...hash].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The operationId of `key`. @throws as {@link uuidV5}. */
export const operationIdOf = (key: KeyInput) => uuidV5(canonicalKey(key));
