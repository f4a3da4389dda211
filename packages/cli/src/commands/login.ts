import { LedgerClient } from '@operation-ledger/client';
import type { Command } from 'commander';
import { examples, type Kit } from '../command-kit.js';
import { configPath, DEFAULT_PROFILE, readConfig, writeConfig, type Profile } from '../config/config-file.js';
import { DEFAULT_URL, type GlobalOptions } from '../context.js';
import { UsageError } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { table, writeJsonLine, writeLine } from '../output/render.js';
import { askKeyTenant } from '../tenant.js';

async function readStdinLine(io: CliIo): Promise<string> {
  let text = '';
  for await (const chunk of io.stdin) {
    text += chunk.toString();
    if (text.includes('\n')) break;
  }
  return text.split('\n')[0]!.trim();
}

/**
 * Checks url + token against the ledger (a `/v1` request, so a wrong token is 401 now rather
 * than at the first command) and learns the key's tenant when the ledger tells it.
 */
async function verify(io: CliIo, url: string, token: string | undefined): Promise<string | null> {
  const client = new LedgerClient({ baseUrl: url, token, fetch: io.fetch, retry: { attempts: 2 } });
  return askKeyTenant(client, token);
}

/** `ledger login`, `ledger logout`, `ledger profiles`: named connection profiles. */
export function registerLogin(program: Command, kit: Kit): void {
  const io = kit.io;
  const globals = (cmd: Command) => cmd.optsWithGlobals() as GlobalOptions & { verify?: boolean };

  examples(
    program
      .command('login')
      .description(
        `store --url and --token (and --tenant) as a profile in ${configPath(io.env)} (mode 0600); --token - reads it from stdin`,
      )
      .option('--no-verify', 'store without asking the ledger whether the token works'),
    [
      'ledger login --url http://127.0.0.1:3000 --token olk_…',
      'ledger login --profile prod --url https://ledger.example.com --tenant acme --token - < token.txt',
    ],
  ).action(async (_o: unknown, cmd: Command) => {
    const o = globals(cmd);
    const name = o.profile ?? io.env.LEDGER_PROFILE ?? DEFAULT_PROFILE;
    const path = configPath(io.env);
    const config = await readConfig(path);
    const url = o.url ?? io.env.LEDGER_URL ?? config.profiles[name]?.url ?? DEFAULT_URL;
    let token = o.token ?? io.env.LEDGER_TOKEN;
    if (token === '-') token = await readStdinLine(io);
    if (!token)
      throw new UsageError('login needs --token olk_… (or --token - to read it from stdin, or LEDGER_TOKEN)');
    if (!/^https?:\/\//.test(url)) throw new UsageError(`--url must be an http(s) URL: ${url}`);
    const keyTenant = o.verify === false ? null : await verify(io, url, token);
    const tenant = o.tenant ?? (keyTenant && keyTenant !== '*' ? keyTenant : undefined);
    const profile: Profile = { url, token, ...(tenant ? { tenant } : {}) };
    await writeConfig(path, { profiles: { ...config.profiles, [name]: profile } });
    const scope = tenant
      ? `tenant ${tenant}`
      : keyTenant === '*'
        ? 'every tenant (pass --tenant to commands)'
        : 'tenant not known (pass --tenant)';
    if (o.json) writeJsonLine(io.stdout, { profile: name, url, tenant: tenant ?? null, keyTenant, path });
    else writeLine(io.stdout, `profile "${name}" saved in ${path}: ${url}, ${scope}`);
  });

  examples(program.command('logout').description('remove a profile (its token) from the config file'), [
    'ledger logout --profile prod',
  ]).action(async (_o: unknown, cmd: Command) => {
    const o = globals(cmd);
    const name = o.profile ?? io.env.LEDGER_PROFILE ?? DEFAULT_PROFILE;
    const path = configPath(io.env);
    const config = await readConfig(path);
    if (!config.profiles[name]) throw new UsageError(`no profile "${name}" in ${path}`);
    const { [name]: _gone, ...rest } = config.profiles;
    await writeConfig(path, { profiles: rest });
    writeLine(io.stdout, `profile "${name}" removed`);
  });

  examples(program.command('profiles').description('the stored profiles (tokens are never printed)'), [
    'ledger profiles',
  ]).action(async (_o: unknown, cmd: Command) => {
    const o = globals(cmd);
    const { profiles } = await readConfig(configPath(io.env));
    const rows = Object.entries(profiles).map(([name, p]) => ({
      name,
      url: p.url,
      tenant: p.tenant ?? null,
      token: p.token ? 'set' : null,
    }));
    if (o.json) return rows.forEach((r) => writeJsonLine(io.stdout, r));
    writeLine(
      io.stdout,
      table(
        ['PROFILE', 'URL', 'TENANT', 'TOKEN'],
        rows.map((r) => [r.name, r.url, r.tenant, r.token]),
      ),
    );
  });
}
