// A backfill run by the built `ledger` binary, killed (SIGKILL) half way, then run again: the
// re-run reports acquired + replayed == lines, takes over the claims the killed run left
// unconfirmed, and no operation was claimed twice. 1 000 lines in chunks of 200, killed in the
// middle of the third chunk (10 000 lines in chunks of 500 proved the same at ten times the cost:
// every line is a claim and a confirm).
import { spawn } from 'node:child_process';
import type { IncomingMessage, Server } from 'node:http';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildUnlessFresh } from '../support/build-unless-fresh.js';
import { claimsPerStream, startCliWorld, type CliWorld } from './support/cli-harness.js';

const LINES = 1_000;
const CHUNK = 200;
/** The confirm of the third chunk's middle line: chunks 1–2 done and written, chunk 3 claimed. */
const KILL_AT_CONFIRM = 2.5 * CHUNK;
const BIN = join(process.cwd(), 'packages/cli/dist/bin.js');
let world: CliWorld;

/** Runs the built CLI; resolves when it exits. */
function ledger(args: string[], onStart?: (kill: () => void) => void) {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: {
      ...process.env,
      LEDGER_URL: world.ledger.url,
      LEDGER_TOKEN: world.ledger.rootToken,
      LEDGER_CONFIG: join(world.dir, 'c.json'),
    },
    cwd: world.dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  onStart?.(() => child.kill('SIGKILL'));
  return new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>((done) =>
    child.on('exit', (code, signal) => done({ code, signal, stdout, stderr })),
  );
}

const resultLines = async () => {
  try {
    return (await readFile(join(world.dir, 'big.results.ndjson'), 'utf8')).split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
};

beforeAll(async () => {
  // The test runs the binary as an operator would: built SDK and CLI (`npm ci` built them; rebuilt
  // here when a source is newer).
  buildUnlessFresh(
    process.cwd(),
    'packages/cli/dist/bin.js',
    ['packages/cli/src', 'packages/client/src', 'packages/protocol/src'],
    ['run', 'build', '-w', '@operation-ledger/cli'],
  );
  world = await startCliWorld();
  const lines = Array.from({ length: LINES }, (_, i) =>
    JSON.stringify({ order_id: i + 1, amount: (i % 97) + 0.5 }),
  );
  await writeFile(join(world.dir, 'big.ndjson'), lines.join('\n') + '\n');
}, 240_000);
afterAll(() => world?.close());

it('killed half way and run again: acquired + replayed == lines, each operation claimed exactly once', async () => {
  const args = [
    'backfill',
    'big.ndjson',
    '--tenant',
    'acme',
    '--action',
    'invoice.create',
    '--source',
    'shop',
    '--key',
    'subject=${order_id}',
    '--results',
    'big.results.ndjson',
    '--chunk',
    String(CHUNK),
    '--json',
  ];
  // Killed by the ledger itself when the confirm of line 500 arrives: chunks 1–2 (lines 1–400) are
  // done and written, chunk 3 is claimed and half confirmed — whatever the machine's load (a poll
  // of the results file from this process was starved under load and missed the moment).
  const server = world.ledger.app.getHttpServer() as Server;
  let confirms = 0;
  let kill = () => {};
  const killMidChunk = (req: IncomingMessage) => {
    if (req.method === 'POST' && /\/confirm$/.test(req.url ?? '') && ++confirms === KILL_AT_CONFIRM) kill();
  };
  server.on('request', killMidChunk);
  const killed = await ledger(args, (k) => (kill = k)).finally(() => server.off('request', killMidChunk));
  expect(killed.signal).toBe('SIGKILL');
  const before = await resultLines();
  expect(before).toBe(2 * CHUNK);

  const rerun = await ledger(args);
  expect(rerun.stderr).toBe('');
  expect(rerun.code).toBe(0);
  const summary = JSON.parse(rerun.stdout.trim());
  expect(summary.lines).toBe(LINES);
  expect(summary.acquired + summary.replayed).toBe(LINES);
  expect(summary.replayed).toBeGreaterThanOrEqual(before);
  // chunk 3's claims the killed run made and did not confirm: taken over, not claimed again
  expect(summary.resumed).toBeGreaterThan(0);
  expect(summary).toMatchObject({ conflicts: 0, inProgress: 0, refused: 0, interrupted: false });
  expect(await resultLines()).toBe(LINES);

  const claims = await claimsPerStream(world.ledger);
  expect(claims.size).toBe(LINES);
  expect([...claims.values()].every((n) => n === 1)).toBe(true);
  const sample = await world.sdk.operations.get(
    world.sdk.operationIdOf({
      tenant: 'acme',
      source: 'shop',
      action: 'invoice.create',
      subject: String(LINES),
    }),
  );
  expect(sample.state).toBe('confirmed');
}, 600_000);
