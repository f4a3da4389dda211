import { createInterface } from 'node:readline';
import { resolve } from 'node:path';
import { LedgerClient } from '@operation-ledger/client';
import { configPath, DEFAULT_PROFILE, readConfig, type Profile } from './config/config-file.js';
import { UsageError } from './exit-codes.js';
import type { CliIo } from './io.js';
import { writeJsonLine, writeLine } from './output/render.js';
import { resolveTenant } from './tenant.js';

/** The options every command accepts (declared on the program). */
export interface GlobalOptions {
  readonly url?: string;
  readonly token?: string;
  readonly tenant?: string;
  readonly profile?: string;
  readonly json?: boolean;
  /** `--no-progress` sets it false. */
  readonly progress?: boolean;
  /** `--verbose`: also the read model's checkpoint and lag under lists. */
  readonly verbose?: boolean;
}

/** Where the ledger is when nothing says otherwise (`npm start`'s address). */
export const DEFAULT_URL = 'http://127.0.0.1:3000';

/** Connection settings after applying flags, profiles and environment variables. */
export interface Settings {
  readonly url: string;
  readonly token?: string;
  readonly tenant?: string;
  readonly profile: string;
}

/**
 * Settings by precedence: the `--url`/`--token`/`--tenant` flags; then the profile named by
 * `--profile`; then `LEDGER_URL`/`LEDGER_TOKEN`/`LEDGER_TENANT`; then the profile named by
 * `LEDGER_PROFILE` or `default`; then {@link DEFAULT_URL}.
 * @throws UsageError when a named profile does not exist.
 */
export async function resolveSettings(io: CliIo, opts: GlobalOptions): Promise<Settings> {
  const env = io.env;
  const named = opts.profile ?? env.LEDGER_PROFILE;
  const name = named ?? DEFAULT_PROFILE;
  const config = await readConfig(configPath(env));
  const profile: Partial<Profile> | undefined = config.profiles[name];
  if (named && !profile) throw new UsageError(`no profile "${name}" in ${configPath(env)} (ledger login)`);
  const first = opts.profile ? profile : undefined;
  const last = opts.profile ? undefined : profile;
  return {
    url: opts.url ?? first?.url ?? env.LEDGER_URL ?? last?.url ?? DEFAULT_URL,
    token: opts.token ?? first?.token ?? env.LEDGER_TOKEN ?? last?.token,
    tenant: opts.tenant ?? first?.tenant ?? env.LEDGER_TENANT ?? last?.tenant,
    profile: name,
  };
}

/** What a command runs with: the client, output helpers, the tenant (asked once), prompts. */
export class CommandContext {
  readonly client: LedgerClient;
  readonly json: boolean;
  private tenantAnswer: Promise<string> | undefined;

  constructor(
    readonly io: CliIo,
    readonly settings: Settings,
    readonly options: GlobalOptions,
  ) {
    if (!/^https?:\/\//.test(settings.url))
      throw new UsageError(`--url must be an http(s) URL: ${settings.url}`);
    this.client = new LedgerClient({ baseUrl: settings.url, token: settings.token, fetch: io.fetch });
    this.json = options.json === true;
  }

  /** The tenant of list and report commands; see {@link resolveTenant}. */
  tenant(): Promise<string> {
    this.tenantAnswer ??= resolveTenant(this.client, this.settings.token, this.settings.tenant);
    return this.tenantAnswer;
  }

  /** `--verbose` was given (and not `--json`): print the read-model checkpoint under lists. */
  get verbose(): boolean {
    return this.options.verbose === true && !this.json;
  }

  /** Progress bars: on unless `--no-progress` or `--json` (they are drawn on a stderr terminal only). */
  get progress(): boolean {
    return this.options.progress !== false && !this.json;
  }

  /** Writes a line of human output to stdout. */
  print(text = ''): void {
    writeLine(this.io.stdout, text);
  }

  /** Writes one JSON value as a line to stdout (NDJSON when called per item). */
  printJson(value: unknown): void {
    writeJsonLine(this.io.stdout, value);
  }

  /** Writes a note to stderr (never mixed into stdout, which scripts parse). */
  note(text: string): void {
    writeLine(this.io.stderr, text);
  }

  /** `p` relative to the working directory. */
  path(p: string): string {
    return resolve(this.io.cwd, p);
  }

  /** Asks `question` on stderr and reads one line from stdin: true for `y`/`yes`. */
  async confirm(question: string): Promise<boolean> {
    this.io.stderr.write(`${question} [y/N] `);
    const rl = createInterface({ input: this.io.stdin, terminal: false });
    try {
      const answer = await new Promise<string>((done) => {
        rl.once('line', done);
        rl.once('close', () => done(''));
      });
      return /^y(es)?$/i.test(answer.trim());
    } finally {
      rl.close();
    }
  }
}

/** Builds the context of one command from its merged options. */
export async function contextFor(io: CliIo, opts: GlobalOptions): Promise<CommandContext> {
  return new CommandContext(io, await resolveSettings(io, opts), opts);
}
