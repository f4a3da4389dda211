import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { examples, type Kit } from '../command-kit.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { table } from '../output/render.js';
import { durationMs } from '../parse-options.js';

/** An API key as the admin routes show it (docs/api.md "API keys"). */
interface KeyView {
  readonly id: string;
  readonly name: string;
  readonly tenant: string;
  readonly roles: readonly string[];
  readonly status: string;
  readonly createdAt: string;
  readonly rotatedAt?: string | null;
  readonly revokedAt?: string | null;
  readonly previousSecretExpiresAt?: string | null;
  readonly token?: string;
}

const ROLES = ['worker', 'operator', 'auditor', 'admin'];
const KEY_ID = /^[0-9a-f]{24}$/;

function roleList(value: string): string[] {
  const roles = value
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  if (roles.length === 0 || !roles.every((r) => ROLES.includes(r)))
    throw new InvalidArgumentError(`a comma-separated list of ${ROLES.join(', ')}`);
  return roles;
}

function keyId(value: string): string {
  if (!KEY_ID.test(value)) throw new UsageError(`"${value}" is not a key id (24 lowercase hex characters)`);
  return value;
}

function printKeys(ctx: CommandContext, keys: readonly KeyView[]): void {
  if (ctx.json) {
    for (const k of keys) ctx.printJson(k);
    return;
  }
  ctx.print(
    table(
      ['ID', 'STATUS', 'TENANT', 'ROLES', 'NAME', 'CREATED', 'OLD SECRET UNTIL'],
      keys.map((k) => [
        k.id,
        k.status,
        k.tenant,
        k.roles.join(','),
        k.name,
        k.createdAt,
        k.previousSecretExpiresAt,
      ]),
    ),
  );
  const token = keys.find((k) => k.token)?.token;
  if (token) ctx.print(`token (shown once, keep it in a secret store):\n${token}`);
}

const request = <T>(ctx: CommandContext, method: string, path: string, body?: unknown) =>
  ctx.client.transport.request<T>(method, path, { body }).then((r) => r.body);

/**
 * `ledger keys create|list|revoke|rotate` over the admin routes (`/v1/admin/keys`, role
 * `admin`): works against any deployment. `npm run keys` in a clone still manages keys directly
 * in the database (for the first key, or when the ledger is down).
 */
export function registerKeys(program: Command, kit: Kit): void {
  const keys = program
    .command('keys')
    .description('API keys through the admin routes (role admin); `npm run keys` is the database mode');

  examples(
    keys
      .command('create')
      .description('create a key; its token is printed once')
      .requiredOption('--for-tenant <tenant>', 'the tenant the key is bound to, or * for every tenant')
      .requiredOption('--roles <roles>', `comma-separated: ${ROLES.join(', ')}`, roleList)
      .requiredOption('--name <name>', 'who holds it (recorded as the actor of operator actions)'),
    ['ledger keys create --for-tenant acme --roles operator,auditor --name "alice (ops)"'],
  ).action(
    kit.act(async (ctx, _args, o) => {
      printKeys(ctx, [
        await request<KeyView>(ctx, 'POST', '/v1/admin/keys', {
          tenant: o.forTenant,
          roles: o.roles,
          name: o.name,
        }),
      ]);
    }),
  );

  examples(
    keys
      .command('list')
      .description('the keys this admin may see (never their secrets)')
      .option('--for-tenant <tenant>', 'only this tenant'),
    ['ledger keys list', 'ledger keys list --for-tenant acme --json'],
  ).action(
    kit.act(async (ctx, _args, o) => {
      const query = o.forTenant ? `?tenant=${encodeURIComponent(o.forTenant)}` : '';
      printKeys(ctx, (await request<{ keys: KeyView[] }>(ctx, 'GET', `/v1/admin/keys${query}`)).keys);
    }),
  );

  examples(keys.command('revoke <keyId>').description('revoke a key at once (idempotent)'), [
    'ledger keys revoke 0123456789abcdef01234567',
  ]).action(
    kit.act(async (ctx, [id]) => {
      printKeys(ctx, [await request<KeyView>(ctx, 'POST', `/v1/admin/keys/${keyId(id!)}/revoke`)]);
    }),
  );

  examples(
    keys
      .command('rotate <keyId>')
      .description('give a key a new secret (printed once); the old one keeps working for --overlap')
      .option(
        '--overlap <duration>',
        'how long the old secret stays valid (e.g. 10m, 1d; default 0)',
        durationMs,
      ),
    ['ledger keys rotate 0123456789abcdef01234567 --overlap 1h'],
  ).action(
    kit.act(async (ctx, [id], o) => {
      const body = o.overlap === undefined ? {} : { overlapMs: o.overlap };
      printKeys(ctx, [await request<KeyView>(ctx, 'POST', `/v1/admin/keys/${keyId(id!)}/rotate`, body)]);
    }),
  );
}
