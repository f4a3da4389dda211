import { createHash } from 'node:crypto';

/**
 * Namespace of operation ids (docs/guide.md "Operation identity"): fixed forever, since changing it
 * would change every operationId.
 */
export const OPERATION_ID_NAMESPACE = '63eeae26-aca5-40f1-b1c3-d04d32d0e365';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * UUID version 5 (RFC 9562 §5.5): SHA-1 of the namespace's 16 bytes followed by `name` as UTF-8,
 * truncated to 16 bytes, with the version (5) and variant (10xx) bits set. Lower-case hex.
 * @throws TypeError when `namespace` is not a UUID.
 */
export function uuidV5(name: string, namespace: string = OPERATION_ID_NAMESPACE): string {
  if (!UUID.test(namespace)) throw new TypeError(`namespace ${namespace} is not a UUID`);
  const hash = createHash('sha1')
    .update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
