import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = process.cwd();
const OUT = join(ROOT, 'node_modules/.cache/ledger-projector-build');

// Transpiles src/**/*.ts (not type-checked: `npx tsc` does that) with the project's .swcrc.
const BUILD = `
import { transformFile } from '@swc/core';
import { readdirSync, mkdirSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { join, dirname, relative } from 'node:path';
const [root, out] = process.argv.slice(1);
const swcrc = JSON.parse(readFileSync(join(root, '.swcrc'), 'utf8'));
delete swcrc.$schema;
const files = [];
const walk = (d) => { for (const e of readdirSync(d, { withFileTypes: true })) { const p = join(d, e.name);
  if (e.isDirectory()) walk(p); else if (p.endsWith('.ts') && !p.endsWith('.spec.ts')) files.push(p); } };
walk(join(root, 'src'));
rmSync(out, { recursive: true, force: true });
await Promise.all(files.map(async (f) => {
  const { code } = await transformFile(f, { ...swcrc, swcrc: false, sourceMaps: false, filename: f });
  const target = join(out, relative(root, f)).replace(/\\.ts$/, '.js');
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, code);
}));
writeFileSync(join(out, 'package.json'), '{"type":"module"}\\n');
`;

let built = false;

/**
 * Compiles the sources once per test file into `node_modules/.cache/ledger-projector-build`
 * (SWC, well under a second — a full `tsc` build would cost ~15 s of the test budget) and returns
 * the path of the projector entry point, `src/projections/projector-main.js`, there.
 */
export function buildProjector(): string {
  if (!built) {
    execFileSync(process.execPath, ['--input-type=module', '-e', BUILD, ROOT, OUT], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    built = true;
  }
  return join(OUT, 'src/projections/projector-main.js');
}

/** A projector child process and the instance id it reported. */
export interface ProjectorProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Resolves with the exit code or signal. */
  readonly exited: Promise<number | string | null>;
}

/**
 * Starts `node projector-main.js` on PostgreSQL `databaseUrl` with small batches (so a kill lands
 * mid catch-up) and resolves once it printed that it runs.
 */
export async function startProjectorProcess(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<ProjectorProcess> {
  const entry = buildProjector();
  const child = spawn(process.execPath, [entry], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      LEDGER_STORE: 'postgres',
      DATABASE_URL: databaseUrl,
      LEDGER_POOL_SIZE: '4',
      LEDGER_PROJECTOR_BATCH_SIZE: '100',
      LEDGER_PROJECTOR_POLL_MS: '100',
      LEDGER_PROJECTOR_LOCK_POLL_MS: '100',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('"started"')) resolve();
    });
    void exited.then((how) =>
      reject(new Error(`projector exited (${String(how)}) before starting: ${stderr}`)),
    );
  });
  return { child, pid: child.pid!, exited };
}
