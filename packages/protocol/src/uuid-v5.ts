import { sha1 } from './sha1.js';
import { encodeUtf8 } from './utf8.js';

/**
 * Namespace of operation ids and provider keys (docs/api.md "Operation identity"). Fixed
 * forever: changing it would change every operationId.
 */
export const OPERATION_ID_NAMESPACE = '63eeae26-aca5-40f1-b1c3-d04d32d0e365';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

function uuidBytes(uuid: string): Uint8Array {
  if (!UUID.test(uuid)) throw new TypeError(`namespace ${uuid} is not a UUID`);
  const hex = uuid.replace(/-/g, '');
  return Uint8Array.from({ length: 16 }, (_, i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16));
}

const OPERATION_NAMESPACE_BYTES = uuidBytes(OPERATION_ID_NAMESPACE);

/**
 * UUID version 5 (RFC 9562 §5.5) of `name` under `namespace`, lower-case hex.
 * @throws TypeError when `namespace` is not a UUID.
 */
export function uuidV5(name: string, namespace: string = OPERATION_ID_NAMESPACE): string {
  const ns = namespace === OPERATION_ID_NAMESPACE ? OPERATION_NAMESPACE_BYTES : uuidBytes(namespace);
  const nameBytes = encodeUtf8(name);
  const input = new Uint8Array(16 + nameBytes.length);
  input.set(ns);
  input.set(nameBytes, 16);
  const hash = sha1(input);
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  let hex = '';
  for (let i = 0; i < 16; i++) {
    hex += HEX[hash[i]!];
    if (i === 3 || i === 5 || i === 7 || i === 9) hex += '-';
  }
  return hex;
}
