// `npm start`, as the README documents it, in a real child process: it stops on SIGTERM to its
// pid (port freed, no process left behind, live subscriptions told) — also when the signal comes
// during start-up —, refuses a taken port before creating anything and a missing database in one
// line, keeps the first admin key out of a non-terminal stdout and reminds to delete its file.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alive, canBind, descendants, ensureBuilt, freePort, run, type Started } from './start-command.js';

let temp: string;
const started: Started[] = [];

beforeAll(() => {
  ensureBuilt();
  temp = mkdtempSync(join(tmpdir(), 'ledger-start-'));
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

/** Paths under `dir` whose mode lets the group or others write. */
function writableByOthers(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .map((e) => join(e.parentPath, e.name))
    .filter((p) => (statSync(p).mode & 0o022) !== 0);
}

/** True when something accepts a TCP connection on 127.0.0.1:`port` now. */
function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

function start(env: Record<string, string>): Started {
  const s = run('npm', ['start'], env);
  started.push(s);
  return s;
}

/** Reads an SSE response until `stop` matches the text received; resolves with all of it. */
async function readStream(res: Response, stop: RegExp): Promise<{ text: string; ended: boolean }> {
  const reader = res.body!.getReader();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return { text, ended: true };
    text += new TextDecoder().decode(value);
    if (stop.test(text) && /event: shutdown[^\n]*\ndata: [^\n]*\n\n/.test(text)) {
      const rest = await reader.read(); // the stream ends right after the final event
      return { text, ended: rest.done };
    }
  }
}

it('SIGTERM to the pid of `npm start` stops the server: final SSE event, one log line, port freed, no process left', async () => {
  const port = await freePort();
  const dataDir = join(temp, 'run');
  const ledger = start({ PORT: String(port), LEDGER_DATA_DIR: dataDir });
  await ledger.waitFor(/listening on http:\/\/127\.0\.0\.1:\d+/);
  const tree = descendants(ledger.child.pid!);
  expect(tree.length).toBeGreaterThan(0); // sh and/or node under npm

  // stdout is a pipe, not a terminal: the first admin key is in a 0600 file, not in the output.
  const keyFile = join(dataDir, 'first-admin-key');
  const token = readFileSync(keyFile, 'utf8').trim();
  expect(token).toMatch(/^olk_[0-9a-f]{24}_/);
  expect(statSync(keyFile).mode & 0o777).toBe(0o600);
  expect(ledger.output()).not.toContain(token);
  expect(ledger.output()).toContain(keyFile);
  // The ready line names the console; no file of the new data directory is writable by others.
  expect(ledger.output()).toMatch(
    /listening on http:\/\/\S+ \(store: [^)]*\); API docs at \/docs, console at \/console/,
  );
  expect(writableByOthers(dataDir)).toEqual([]);

  const created = await fetch(`http://127.0.0.1:${port}/v1/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ tenant: 'acme', roles: ['auditor'], name: 'start-stop test' }),
  });
  expect(created.status).toBe(201);
  const auditor = ((await created.json()) as { token: string }).token;
  const sse = await fetch(`http://127.0.0.1:${port}/v1/tenants/acme/operations/changes`, {
    headers: { authorization: `Bearer ${auditor}` },
  });
  expect(sse.status).toBe(200);
  const stream = readStream(sse, /event: shutdown/);

  process.kill(ledger.child.pid!, 'SIGTERM');
  const { text, ended } = await stream;
  expect(text).toMatch(/event: ready/);
  expect(text).toMatch(/event: shutdown\ndata: \{"reason":/);
  expect(ended).toBe(true);
  const exit = await ledger.exited;
  expect(exit).toEqual({ code: 0, signal: null });
  expect(ledger.output().match(/SIGTERM received: shutting down/g)).toHaveLength(1);
  for (let i = 0; i < 100 && tree.some(alive); i++) await new Promise((r) => setTimeout(r, 50));
  expect(tree.filter(alive)).toEqual([]);
  expect(await canBind(port)).toBe(true);
  // The data directory lock was released: the same directory starts again, and keeps its key.
  const again = start({ PORT: String(port), LEDGER_DATA_DIR: dataDir });
  await again.waitFor(/listening on/);
  // The key file is still there: every start reminds to delete it (naming the file, not the token).
  expect(again.output()).toContain(
    `${keyFile} still holds the first admin token: once it is in a secret store, delete it`,
  );
  expect(again.output()).not.toContain(token);
  const health = await fetch(`http://127.0.0.1:${port}/v1/admin/keys`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(health.status).toBe(200);
  // Ctrl-C in a terminal: SIGINT to the whole group, so node gets it directly and from npm.
  process.kill(-again.child.pid!, 'SIGINT');
  expect(await again.exited).toEqual({ code: 0, signal: null });
  expect(again.output().match(/SIGINT received: shutting down/g)).toHaveLength(1);
  expect(again.output()).not.toMatch(/again/);
}, 90_000);

it('a port in use: one clear line, exit code 1, no database and no admin key created', async () => {
  const port = await freePort();
  const squatter: Server = createServer();
  await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
  try {
    const dataDir = join(temp, 'never-created');
    const ledger = start({ PORT: String(port), LEDGER_DATA_DIR: dataDir });
    const exit = await ledger.exited;
    expect(exit.code).toBe(1);
    const out = ledger.output();
    expect(out).toMatch(new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`));
    expect(out).not.toMatch(/EADDRINUSE|\n\s+at /); // no stack trace
    expect(out).not.toMatch(/olk_|admin key/);
    expect(existsSync(dataDir)).toBe(false);
  } finally {
    await new Promise((resolve) => squatter.close(resolve));
  }
}, 60_000);

it('a missing PostgreSQL database: one line with its name and the createdb command, exit code 1', async () => {
  const name = `ledger_missing_${process.pid}`;
  const ledger = start({
    PORT: String(await freePort()),
    LEDGER_STORE: 'postgres',
    DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${name}`,
  });
  expect((await ledger.exited).code).toBe(1);
  const out = ledger.output();
  expect(out).toContain(
    // a JSON log line: the quotes around the name are escaped
    `database \\"${name}\\" does not exist: create it with \`createdb -h 127.0.0.1 -p 5432 -U postgres ${name}\``,
  );
  expect(out).not.toMatch(/\n\s+at /); // no stack trace
});

it('a request that connects while the ledger boots is answered once it listens (not left hanging)', async () => {
  const port = await freePort();
  // the first test's directory when it is there: the boot still builds the whole application
  // after binding, and a second start costs no initdb
  const ledger = start({ PORT: String(port), LEDGER_DATA_DIR: join(temp, 'run') });
  // connect as soon as the port takes connections: the application is still being built then.
  // (Probing by binding the port ourselves could take it from the ledger at its start.)
  let early: Promise<Response> | undefined;
  for (let i = 0; i < 2_000 && !early && ledger.child.exitCode === null; i++) {
    if (await accepting(port)) {
      early = fetch(`http://127.0.0.1:${port}/health/live`, { signal: AbortSignal.timeout(45_000) });
    } else {
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  if (!early)
    throw new Error(`the port never took a connection; exit ${ledger.child.exitCode}:\n${ledger.output()}`);
  const res = await early!;
  expect(res.status).toBe(200);
  ledger.child.kill('SIGTERM');
  expect((await ledger.exited).code).toBe(0);
}, 90_000);

it('LEDGER_AUTH=disabled starts on loopback (the bound socket is checked, not the listen arguments)', async () => {
  const port = await freePort();
  const ledger = start({
    PORT: String(port),
    // the first test's directory when it is there (a second start costs no initdb)
    LEDGER_DATA_DIR: join(temp, 'run'),
    LEDGER_AUTH: 'disabled',
  });
  await ledger.waitFor(/listening on http:\/\/127\.0\.0\.1:\d+/);
  const res = await fetch(`http://127.0.0.1:${port}/v1/tenants/acme/operations`);
  expect(res.status).toBe(200);
  ledger.child.kill('SIGTERM');
  expect((await ledger.exited).code).toBe(0);
}, 90_000);

/** The processes of the group `pgid` (from /proc), as "pid state command line". */
function groupMembers(pgid: number): string[] {
  const members: string[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) !== pgid) continue;
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      members.push(`${name} ${state} ${cmd}`);
    } catch {
      /* gone */
    }
  }
  return members;
}

/** The entries of `dir`, or [] when there is none. */
function readdirSafe(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir) : [];
}

/** The entries of `dir` that are not the lock's (`ledger.pid*`); [] when there is no `dir`. */
function databaseFiles(dir: string): string[] {
  return readdirSafe(dir).filter((name) => !name.startsWith('ledger.pid'));
}

/** The command `npm start` runs (`exec node …`): the shell's pid becomes node's. */
const START_SCRIPT = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } })
  .scripts.start;

it('SIGTERM at any moment of start-up: exit 0 once started with the lock released, or (before the handlers) death by the signal with nothing created', async () => {
  // The start script as npm runs it, signalled at node's pid: npm itself has a window (between
  // its fork and installing its forwarding handler) where SIGTERM kills npm and leaves node
  // running — npm's, not the ledger's. node installs its handlers ≈ 0.3 s after it starts (more
  // under load), and locks the data directory and starts the database well before it listens.
  // Five moments, each start a whole start and stop (≈ 5 CPU-s): before the handlers, while the
  // modules load and the store opens, while the app is built, and about when it listens.
  const batches = [
    [150, 700, 1600],
    [400, 2400],
  ];
  const outcomes: { delayMs: number; dataDir: string; hadDatabase: boolean }[] = [];
  for (const batch of batches) {
    await Promise.all(
      batch.map(async (delayMs) => {
        const dataDir = join(temp, `signal-at-${delayMs}`);
        const ledger = run('sh', ['-c', START_SCRIPT], {
          PORT: String(await freePort()),
          LEDGER_DATA_DIR: dataDir,
          // After a signal the start-up is bounded by the grace (10 s by default); fresh starts on
          // a loaded 2-core machine took longer (bound-startup-on-signal.unit.spec.ts checks it).
          LEDGER_SHUTDOWN_GRACE_MS: '120000',
        });
        started.push(ledger);
        await new Promise((r) => setTimeout(r, delayMs));
        process.kill(ledger.child.pid!, 'SIGTERM');
        const exit = await ledger.exited;
        for (let i = 0; i < 100 && groupMembers(ledger.child.pid!).length > 0; i++)
          await new Promise((r) => setTimeout(r, 50));
        const seen = { delayMs, exit, left: readdirSafe(dataDir), output: ledger.output() };
        // nothing left running (no process of its group)
        expect({ delayMs, exit, group: groupMembers(ledger.child.pid!) }).toEqual({
          delayMs,
          exit,
          group: [],
        });
        if (exit.signal === 'SIGTERM') {
          // only before the handlers: nothing was opened yet
          expect({ ...seen, database: databaseFiles(dataDir) }).toMatchObject({
            delayMs,
            left: [],
            database: [],
          });
        } else {
          expect(seen).toMatchObject({
            delayMs,
            exit: { code: 0, signal: null },
            output: expect.stringMatching(/SIGTERM received: shutting down/),
          });
          expect(seen.output.match(/SIGTERM received: shutting down/g)).toHaveLength(1);
          expect(seen.left).not.toContain('ledger.pid'); // the data directory's lock was released
        }
        outcomes.push({ delayMs, dataDir, hadDatabase: databaseFiles(dataDir).length > 0 });
      }),
    );
  }
  // A directory the stop left a database in opens again (the earliest and the latest such stop).
  const reopened = outcomes.filter((o) => o.hadDatabase).sort((a, b) => a.delayMs - b.delayMs);
  expect(reopened.length).toBeGreaterThan(0);
  await Promise.all(
    [...new Set([reopened[0], reopened[reopened.length - 1]])].map(async ({ dataDir }) => {
      const port = await freePort();
      const again = start({ PORT: String(port), LEDGER_DATA_DIR: dataDir });
      await again.waitFor(/listening on/);
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
      again.child.kill('SIGTERM');
      expect(await again.exited).toEqual({ code: 0, signal: null });
    }),
  );
}, 240_000);
