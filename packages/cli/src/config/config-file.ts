import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** One named profile: where the ledger is and the API key to send (and optionally a tenant). */
export interface Profile {
  readonly url: string;
  readonly token?: string;
  readonly tenant?: string;
}

/** The config file: `{ profiles: { name: Profile } }`. */
export interface ConfigFile {
  readonly profiles: Readonly<Record<string, Profile>>;
}

/** The profile used when neither `--profile` nor `LEDGER_PROFILE` names one. */
export const DEFAULT_PROFILE = 'default';

/**
 * Where profiles are kept: `LEDGER_CONFIG` when set, else
 * `$XDG_CONFIG_HOME/operation-ledger/config.json` (XDG Base Directory Specification), else
 * `~/.config/operation-ledger/config.json`.
 */
export function configPath(env: Readonly<Record<string, string | undefined>>): string {
  if (env.LEDGER_CONFIG) return env.LEDGER_CONFIG;
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'operation-ledger', 'config.json');
}

/** Reads the config file; a missing file is an empty config. @throws Error on malformed JSON. */
export async function readConfig(path: string): Promise<ConfigFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw err;
  }
  const parsed = JSON.parse(text) as Partial<ConfigFile>;
  if (typeof parsed !== 'object' || parsed === null || typeof parsed.profiles !== 'object')
    throw new Error(`${path}: not a ledger config file (no "profiles" object)`);
  return { profiles: parsed.profiles ?? {} };
}

/**
 * Writes the config file atomically (a temporary file renamed over it) with mode 0600 — it holds
 * API keys — in a directory created with mode 0700.
 */
export async function writeConfig(path: string, config: ConfigFile): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, path);
}
