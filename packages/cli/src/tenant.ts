import { LedgerRequestError, type LedgerClient } from '@operation-ledger/client';
import { UsageError } from './exit-codes.js';

/** `olk_<24 hex id>_<secret>` → the id (docs/api.md "Authentication, roles and tenants"). */
export function keyIdOfToken(token: string | undefined): string | null {
  const m = /^olk_([0-9a-f]{24})_/.exec(token ?? '');
  return m ? m[1]! : null;
}

/**
 * The tenant the API key is bound to, asked of the ledger: `GET /v1/me` (ledgers that have it),
 * else — for admin keys — the key's own row in `GET /v1/admin/keys`. Returns null when the ledger
 * cannot say (an older ledger and a non-admin key); `*` for an all-tenant key.
 * @throws LedgerRequestError 401 (a bad token), LedgerUnavailableError.
 */
export async function askKeyTenant(client: LedgerClient, token: string | undefined): Promise<string | null> {
  try {
    const me = (await client.transport.request<{ tenant?: string }>('GET', '/v1/me')).body;
    if (typeof me?.tenant === 'string') return me.tenant;
  } catch (err) {
    if (!(err instanceof LedgerRequestError) || err.status !== 404) throw err;
  }
  const id = keyIdOfToken(token);
  if (!id) return null;
  try {
    const res = await client.transport.request<{ keys: { id: string; tenant: string }[] }>(
      'GET',
      '/v1/admin/keys',
    );
    return res.body.keys.find((k) => k.id === id)?.tenant ?? null;
  } catch (err) {
    if (err instanceof LedgerRequestError && (err.status === 403 || err.status === 404)) return null;
    throw err;
  }
}

/**
 * The tenant a command works on: the one given (`--tenant`, `LEDGER_TENANT`, the profile), else
 * the key's own tenant from {@link askKeyTenant}.
 * @throws UsageError (exit 2) for an all-tenant (`*`) key, or when the ledger cannot tell.
 */
export async function resolveTenant(
  client: LedgerClient,
  token: string | undefined,
  given: string | undefined,
): Promise<string> {
  if (given) return given;
  const tenant = await askKeyTenant(client, token);
  if (tenant === '*')
    throw new UsageError('this API key may act on every tenant: name one with --tenant (or LEDGER_TENANT)');
  if (tenant === null)
    throw new UsageError(
      'the ledger does not say which tenant this key belongs to: pass --tenant, or store it with `ledger login --tenant`',
    );
  return tenant;
}
