// Where the first admin token goes: a terminal gets it printed once; any other stdout (a file, a
// pipe, a container log) never sees it — it is written to a 0600 file whose path is logged.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_KEY_FILE, announceBootstrap } from '../../src/auth/announce-bootstrap.js';

const token = `olk_${'a'.repeat(24)}_${'S'.repeat(43)}`;
const created = { kind: 'created', keyId: 'a'.repeat(24), token } as const;

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'ledger-announce-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function capture() {
  const logged: string[] = [];
  const printed: string[] = [];
  const logger = { log: (m: string) => logged.push(m) } as never;
  return { logged, printed, logger, write: (s: string) => printed.push(s) };
}

it('on a terminal, prints the token once to stdout and writes no file', () => {
  const c = capture();
  expect(announceBootstrap(created, c.logger, c.write, { interactive: true, dataDir: dir })).toBeNull();
  expect(c.printed.join('')).toContain(token);
  expect(c.logged.join('\n')).not.toContain(token);
  expect(() => statSync(join(dir, ADMIN_KEY_FILE))).toThrow();
});

it('elsewhere, writes the token to <dataDir>/first-admin-key (0600) and logs the path, never the token', () => {
  const c = capture();
  const file = announceBootstrap(created, c.logger, c.write, {
    interactive: false,
    dataDir: join(dir, 'new'),
  });
  expect(file).toBe(join(dir, 'new', ADMIN_KEY_FILE));
  expect(readFileSync(file!, 'utf8')).toBe(`${token}\n`);
  expect(statSync(file!).mode & 0o777).toBe(0o600);
  expect(statSync(join(dir, 'new')).mode & 0o077).toBe(0); // a created data directory is private
  expect(c.printed).toEqual([]);
  expect(c.logged.join('\n')).toContain(file!);
  expect(c.logged.join('\n')).not.toContain(token);
});

it('replaces an older key file whole, with mode 0600 even if the old one was world-readable', () => {
  writeFileSync(join(dir, ADMIN_KEY_FILE), 'old token\n', { mode: 0o644 });
  const c = capture();
  const file = announceBootstrap(created, c.logger, c.write, { interactive: false, dataDir: dir });
  expect(readFileSync(file!, 'utf8')).toBe(`${token}\n`);
  expect(statSync(file!).mode & 0o777).toBe(0o600);
});

it('an in-memory store writes the file to a new private temporary directory', () => {
  const c = capture();
  const file = announceBootstrap(created, c.logger, c.write, { interactive: false, dataDir: 'memory://' });
  try {
    expect(file!.startsWith(tmpdir())).toBe(true);
    expect(statSync(file!).mode & 0o777).toBe(0o600);
  } finally {
    rmSync(join(file!, '..'), { recursive: true, force: true });
  }
});

it('says nothing secret for keys from LEDGER_ADMIN_TOKEN or existing keys', () => {
  const c = capture();
  announceBootstrap({ kind: 'from-environment', keyId: 'k', installed: true }, c.logger, c.write, {
    interactive: false,
    dataDir: dir,
  });
  announceBootstrap({ kind: 'existing-keys' }, c.logger, c.write, { interactive: false, dataDir: dir });
  expect(c.printed).toEqual([]);
  expect(c.logged).toEqual(['admin key k from LEDGER_ADMIN_TOKEN installed']);
});

it('on a later start, reminds to delete a first-admin-key file still in the data directory', () => {
  writeFileSync(join(dir, ADMIN_KEY_FILE), `${token}\n`, { mode: 0o600 });
  const warned: string[] = [];
  const logger = { log: () => undefined, warn: (m: string) => warned.push(m) } as never;
  announceBootstrap({ kind: 'existing-keys' }, logger, () => undefined, { interactive: false, dataDir: dir });
  expect(warned).toEqual([
    expect.stringContaining(`${join(dir, ADMIN_KEY_FILE)} still holds the first admin token`),
  ]);
  expect(warned[0]).toContain('delete it');
  expect(warned[0]).not.toContain(token);
});

it('says nothing more when the file is gone', () => {
  const warned: string[] = [];
  const logger = { log: () => undefined, warn: (m: string) => warned.push(m) } as never;
  announceBootstrap({ kind: 'existing-keys' }, logger, () => undefined, { interactive: false, dataDir: dir });
  expect(warned).toEqual([]);
});
