import type { JsonValue } from '../fingerprint.js';

/** Decodes one RFC 6901 reference token (`~1` → `/`, `~0` → `~`). */
function decodeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

function without(value: JsonValue, tokens: readonly string[]): JsonValue {
  if (tokens.length === 0 || value === null || typeof value !== 'object') return value;
  const [head, ...rest] = tokens as [string, ...string[]];
  if (Array.isArray(value)) {
    if (!/^(0|[1-9][0-9]*)$/.test(head)) return value;
    const i = Number(head);
    if (i >= value.length) return value;
    if (rest.length === 0) return value.filter((_, j) => j !== i);
    return value.map((v, j) => (j === i ? without(v, rest) : v));
  }
  if (!Object.prototype.hasOwnProperty.call(value, head)) return value;
  const copy: { [k: string]: JsonValue } = { ...value };
  if (rest.length === 0) delete copy[head];
  else copy[head] = without(value[head]!, rest);
  return copy;
}

/**
 * The payload as fingerprinted under a policy: a copy without the members named by
 * `excludedPointers` (RFC 6901 JSON Pointers; absent members are ignored). The payload itself is
 * never changed.
 */
export function fingerprintInput(payload: JsonValue, excludedPointers: readonly string[]): JsonValue {
  let out = payload;
  for (const pointer of excludedPointers) out = without(out, pointer.split('/').slice(1).map(decodeToken));
  return out;
}
