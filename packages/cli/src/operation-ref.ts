import { keyIssues, operationIdOf, type OperationKey } from '@operation-ledger/client';
import { UsageError } from './exit-codes.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An operation as named on the command line: its operationId (a UUID), or its key written like the
 * canonical key `tenant/source/action/subject[@revision]` — each part percent-decoded, so a part
 * holding `/` or `@` is written `%2F` / `%40` (docs/api.md "Operation identity"). A key is turned
 * into its operationId locally (UUID v5), exactly as the ledger does.
 * @throws UsageError for anything else, or a key part the ledger would refuse.
 */
export function parseOperationRef(ref: string): { operationId: string; key?: Required<OperationKey> } {
  if (UUID.test(ref)) return { operationId: ref.toLowerCase() };
  const m = /^([^/]+)\/([^/]+)\/([^/]+)\/([^/]+?)(?:@(\d+))?$/.exec(ref);
  if (!m)
    throw new UsageError(
      `"${ref}" is neither an operationId (UUID) nor a key tenant/source/action/subject[@revision]`,
    );
  let parts: string[];
  try {
    parts = m.slice(1, 5).map((p) => decodeURIComponent(p!).normalize('NFC'));
  } catch {
    throw new UsageError(`"${ref}": a part is not valid percent-encoding`);
  }
  const key = {
    tenant: parts[0]!,
    source: parts[1]!,
    action: parts[2]!,
    subject: parts[3]!,
    revision: m[5] === undefined ? 1 : Number(m[5]),
  };
  const issues = keyIssues(key);
  if (issues.length > 0)
    throw new UsageError(`"${ref}": ${issues.map((i) => `${i.field} ${i.message}`).join('; ')}`);
  return { operationId: operationIdOf(key), key };
}
