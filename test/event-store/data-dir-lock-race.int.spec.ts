// Several processes starting on one data directory at the same moment: exactly one gets it. Found
// by a breaker: three simultaneous starts on a directory whose lock a killed process had left —
// two served (a rival read the winner's lock file before its pid was written and took it over, or
// two rivals each removed the "stale" file the other had just written).
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { isProcessFile } from '../../src/backup/data-dir-snapshot.js';
import { LOCK_FILE, lockDataDir } from '../../src/event-store/postgres/data-dir-lock.js';
import { ensureBuilt, ROOT } from '../process/start-command.js';

const CONTENDERS = 6;
const ROUNDS = 25;

interface Contender {
  child: ChildProcessByStdio<Writable, Readable, null>;
  lines: AsyncIterator<string>;
  rl: Interface;
}

async function ask(c: Contender, msg: object): Promise<Record<string, unknown>> {
  c.child.stdin.write(JSON.stringify(msg) + '\n');
  const next = await c.lines.next();
  if (next.done) throw new Error('contender exited');
  return JSON.parse(next.value) as Record<string, unknown>;
}

it('waits for a lock file a starting rival has created but not yet written, and then yields to it', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ledger-lock-'));
  const file = join(dir, LOCK_FILE);
  await writeFile(file, ''); // what an older rival leaves between creating and writing
  // The rival (Jest's parent's pid stands in for a live rival process) says it is running, then
  // writes its pid 200 ms later: well inside the 2 s a starting process waits for it.
  const rival = spawn(process.execPath, [
    '-e',
    `process.stdout.write('ready\\n'); setTimeout(() => require('node:fs').writeFileSync(${JSON.stringify(file)}, '${process.ppid}'), 200)`,
  ]);
  await new Promise((resolve) => rival.stdout.once('data', resolve));
  expect(() => lockDataDir(dir)).toThrow(new RegExp(`in use by process ${process.ppid}`));
  expect(await readFile(file, 'utf8')).toBe(String(process.ppid));
  await rm(dir, { recursive: true, force: true });
});

it('takes over a lock file without a pid that has been so for a while (a crash between create and write)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ledger-lock-'));
  const file = join(dir, LOCK_FILE);
  await writeFile(file, '');
  const minuteAgo = new Date(Date.now() - 60_000);
  await utimes(file, minuteAgo, minuteAgo);
  const release = lockDataDir(dir);
  expect(await readFile(file, 'utf8')).toBe(String(process.pid));
  release();
  await rm(dir, { recursive: true, force: true });
});

it(`gives a directory with a stale lock to exactly one of ${CONTENDERS} processes starting together, ${ROUNDS} rounds`, async () => {
  ensureBuilt();
  const module = pathToFileURL(join(ROOT, 'dist/src/event-store/postgres/data-dir-lock.js')).href;
  const script = join(ROOT, 'test/event-store/support/lock-contender.mjs');
  const contenders: Contender[] = Array.from({ length: CONTENDERS }, () => {
    const child = spawn(process.execPath, [script, module], { stdio: ['pipe', 'pipe', 'inherit'] });
    const rl = createInterface({ input: child.stdout });
    return { child, rl, lines: rl[Symbol.asyncIterator]() };
  });
  const winners: number[] = [];
  const refusals: string[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const dir = await mkdtemp(join(tmpdir(), 'ledger-lock-race-'));
      await writeFile(join(dir, LOCK_FILE), '2147483646'); // left by a process that died
      const at = Date.now() + 100;
      const answers = await Promise.all(contenders.map((c) => ask(c, { dir, at })));
      winners.push(answers.filter((a) => a.won).length);
      refusals.push(...answers.filter((a) => !a.won).map((a) => String(a.refused)));
      await Promise.all(contenders.map((c) => ask(c, { release: true })));
      await rm(dir, { recursive: true, force: true });
    }
  } finally {
    for (const c of contenders) {
      c.rl.close();
      c.child.kill();
    }
  }
  expect(winners).toEqual(Array.from({ length: ROUNDS }, () => 1));
  expect(refusals).toEqual(Array.from({ length: ROUNDS * (CONTENDERS - 1) }, () => 'DataDirInUseError'));
}, 120_000);

it("leaves the files of taking the lock out of backups, as it leaves the lock itself (they are this process's, not the database's)", () => {
  for (const name of ['/ledger.pid', '/ledger.pid.takeover', '/ledger.pid.4242.k3j2h1']) {
    expect(isProcessFile(name)).toBe(true);
  }
  expect(isProcessFile('/base/1/1259')).toBe(false);
});

it('takes over a stale lock beside a takeover lock left long ago, even when its pid now belongs to another process', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ledger-lock-'));
  await writeFile(join(dir, LOCK_FILE), '2147483646'); // left by a process that died
  const takeover = join(dir, `${LOCK_FILE}.takeover`);
  await writeFile(takeover, String(process.ppid)); // a live pid, reused by some other process
  const minuteAgo = new Date(Date.now() - 60_000);
  await utimes(takeover, minuteAgo, minuteAgo); // a takeover lasts microseconds: this one is a corpse
  const release = lockDataDir(dir);
  expect(await readFile(join(dir, LOCK_FILE), 'utf8')).toBe(String(process.pid));
  release();
  await rm(dir, { recursive: true, force: true });
});
