// What a new user meets on the first starts of the built server (dist/server/main.js, what
// `npm start` runs) as a process with stdout not a terminal: a missing PostgreSQL database is one
// line naming the command that creates it; the ready line names the console; a new embedded data
// directory has no file others may write; a later start reminds to delete the first admin key file.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, freePort, run, type Started } from './start-command.js';

let temp: string;
const started: Started[] = [];

beforeAll(() => {
  ensureBuilt();
  temp = mkdtempSync(join(tmpdir(), 'ledger-first-start-'));
}, 120_000);
afterAll(() => {
  for (const s of started) {
    try {
      process.kill(-s.child.pid!, 'SIGKILL'); // the whole group, should a test have failed midway
    } catch {
      /* already gone */
    }
  }
  rmSync(temp, { recursive: true, force: true });
});

async function server(env: Record<string, string>): Promise<Started> {
  const s = run('node', ['dist/server/main.js'], {
    PORT: String(await freePort()),
    LEDGER_LOG_FORMAT: 'json',
    ...env,
  });
  started.push(s);
  return s;
}
const lines = (s: Started) =>
  s
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: string; msg: string });

/** Paths under `dir` whose mode lets the group or others write. */
function writableByOthers(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .map((e) => join(e.parentPath, e.name))
    .filter((p) => (statSync(p).mode & 0o022) !== 0);
}

it('a missing PostgreSQL database ends the start with one line: its name and the createdb command', async () => {
  const name = `ledger_missing_${process.pid}`;
  const s = await server({
    LEDGER_STORE: 'postgres',
    DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${name}`,
  });
  expect((await s.exited).code).toBe(1);
  expect(lines(s).filter((l) => l.level === 'error')).toEqual([
    expect.objectContaining({
      msg: `database "${name}" does not exist: create it with \`createdb -h 127.0.0.1 -p 5432 -U postgres ${name}\` (or CREATE DATABASE in psql), or set DATABASE_URL to an existing database`,
    }),
  ]);
  expect(s.output()).not.toMatch(/\s+at /);
});

it('names /console when ready, writes a data directory no one else may write, and reminds of the key file', async () => {
  const dataDir = join(temp, 'data');
  const first = await server({ LEDGER_DATA_DIR: dataDir });
  await first.waitFor(/"listening on http/);
  expect(lines(first).find((l) => l.msg.startsWith('listening on'))!.msg).toMatch(
    /API docs at \/docs, console at \/console$/,
  );
  expect(statSync(join(dataDir, 'first-admin-key')).mode & 0o777).toBe(0o600);
  expect(writableByOthers(dataDir)).toEqual([]);
  first.child.kill('SIGTERM');
  expect((await first.exited).code).toBe(0);

  const again = await server({ LEDGER_DATA_DIR: dataDir });
  await again.waitFor(/"listening on http/);
  expect(
    lines(again)
      .filter((l) => l.level === 'warn')
      .map((l) => l.msg),
  ).toContainEqual(
    expect.stringContaining(
      'first-admin-key still holds the first admin token: once it is in a secret store, delete it',
    ),
  );
  again.child.kill('SIGTERM');
  expect((await again.exited).code).toBe(0);
});
