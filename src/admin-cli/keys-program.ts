import { Command, InvalidArgumentError } from 'commander';
import { ApiKeyInputError } from '../auth/api-key-input.js';
import { generateToken, isKeyId } from '../auth/api-key-token.js';
import { viewOf, type ApiKeyView } from '../auth/api-key.js';
import { createApiKey } from '../auth/create-api-key.js';
import { ApiKeyRevokedError, MAX_ROTATION_OVERLAP_MS, rotateApiKeySecret } from '../auth/rotate-api-key.js';
import { isRole, type Role } from '../auth/role.js';
import { listApiKeys, revokeApiKey } from '../auth/sql/api-key-repository.js';
import type { SqlExecutor } from '../event-store/sql-executor.js';

/** What the key commands need from their surroundings (the entry point, or a test). */
export interface KeysCliEnvironment {
  /** Opens the configured SQL database; called once per command that needs it. */
  openSql(): Promise<{ sql: SqlExecutor; close(): Promise<void> }>;
  /** Writes one line of normal output. */
  out(line: string): void;
  /** Epoch ms (default: Date.now). */
  now?(): number;
}

/** A command could not be carried out (unknown key, revoked key, bad input); exit status 1. */
export class KeysCliError extends Error {
  override readonly name = 'KeysCliError';
}

function roleList(value: string): Role[] {
  const roles = value
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  if (roles.length === 0 || !roles.every(isRole)) {
    throw new InvalidArgumentError('a comma-separated list of worker, operator, auditor, admin');
  }
  return roles as Role[];
}

function nonNegativeMs(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > MAX_ROTATION_OVERLAP_MS) {
    throw new InvalidArgumentError(`an integer number of ms in 0..${MAX_ROTATION_OVERLAP_MS}`);
  }
  return n;
}

function keyId(value: string): string {
  if (!isKeyId(value)) throw new InvalidArgumentError('a key id: 24 lowercase hex characters');
  return value;
}

function describe(k: ApiKeyView): string {
  const overlap = k.previousSecretExpiresAt ? `  old secret until ${k.previousSecretExpiresAt}` : '';
  return `${k.id}  ${k.status.padEnd(7)}  tenant=${k.tenant}  roles=${k.roles.join(',')}  name=${JSON.stringify(k.name)}  created=${k.createdAt}${overlap}`;
}

/**
 * The `keys` command line (commander): `create`, `list`, `revoke`, `rotate`, `token`. Errors throw
 * {@link KeysCliError}, or CommanderError for bad usage (it never calls process.exit).
 */
export function buildKeysProgram(env: KeysCliEnvironment): Command {
  const now = () => (env.now ? env.now() : Date.now());
  const withSql = async <T>(fn: (sql: SqlExecutor) => Promise<T>): Promise<T> => {
    const db = await env.openSql();
    try {
      return await fn(db.sql);
    } finally {
      await db.close();
    }
  };
  const program = new Command('keys')
    .description(
      'Manage the API keys of the Operation Ledger in its configured database (LEDGER_STORE, DATABASE_URL, LEDGER_DATA_DIR)',
    )
    .showHelpAfterError()
    .exitOverride(); // before the subcommands, which inherit it: errors throw, the entry point exits

  program
    .command('create')
    .description('create a key; its token is printed once')
    .requiredOption('--tenant <tenant>', 'the tenant the key acts for, or "*" for all')
    .requiredOption('--roles <roles>', 'comma-separated: worker, operator, auditor, admin', roleList)
    .requiredOption('--name <name>', 'holder of the key (recorded as actor on operator actions)')
    .option('--json', 'print JSON')
    .action(async (opts: { tenant: string; roles: Role[]; name: string; json?: boolean }) => {
      const issued = await withSql((sql) =>
        createApiKey(
          sql,
          { tenant: opts.tenant, roles: opts.roles, name: opts.name },
          { now: now(), installSchema: false },
        ),
      ).catch((err: unknown) => {
        throw err instanceof ApiKeyInputError ? new KeysCliError(err.message) : err;
      });
      if (opts.json) return env.out(JSON.stringify({ ...issued.key, token: issued.token }));
      env.out(describe(issued.key));
      env.out(`token (shown once): ${issued.token}`);
    });

  program
    .command('list')
    .description('list keys (never their secrets)')
    .option('--tenant <tenant>', 'only keys of this tenant ("*" for the all-tenant keys)')
    .option('--json', 'print JSON')
    .action(async (opts: { tenant?: string; json?: boolean }) => {
      const t = now();
      const keys = (await withSql((sql) => listApiKeys(sql, opts.tenant))).map((r) => viewOf(r, t));
      if (opts.json) return env.out(JSON.stringify({ keys }));
      if (keys.length === 0) env.out('no keys');
      keys.forEach((k) => env.out(describe(k)));
    });

  program
    .command('revoke')
    .description('revoke a key at once (a running ledger notices within LEDGER_AUTH_CACHE_MS)')
    .argument('<id>', 'key id', keyId)
    .action(async (id: string) => {
      const record = await withSql((sql) => revokeApiKey(sql, id, now()));
      if (!record) throw new KeysCliError(`no API key ${id}`);
      env.out(describe(viewOf(record, now())));
    });

  program
    .command('rotate')
    .description('give a key a new secret (printed once); the old one works for --overlap-ms more')
    .argument('<id>', 'key id', keyId)
    .option('--overlap-ms <ms>', 'how long the old secret keeps working', nonNegativeMs, 0)
    .option('--json', 'print JSON')
    .action(async (id: string, opts: { overlapMs: number; json?: boolean }) => {
      const issued = await withSql((sql) => rotateApiKeySecret(sql, id, opts.overlapMs, now())).catch(
        (err: unknown) => {
          throw err instanceof ApiKeyRevokedError ? new KeysCliError(err.message) : err;
        },
      );
      if (!issued) throw new KeysCliError(`no API key ${id}`);
      if (opts.json) return env.out(JSON.stringify({ ...issued.key, token: issued.token }));
      env.out(describe(issued.key));
      env.out(`new token (shown once): ${issued.token}`);
    });

  program
    .command('token')
    .description('print a fresh random token, e.g. for LEDGER_ADMIN_TOKEN (stores nothing)')
    .action(() => env.out(generateToken().token));

  return program;
}
