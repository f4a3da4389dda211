// A 10 000-line backfill run by the built `ledger` binary, killed (SIGKILL) half way, then run
// again: the re-run reports acquired + replayed == lines and no operation was claimed twice.
import { execFile, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { claimsPerStream, startCliWorld, type CliWorld } from './support/cli-harness.js';

const LINES = 10_000;
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
  // The test runs the binary as an operator would: build the SDK and the CLI first.
  await promisify(execFile)('npm', ['run', 'build', '-w', '@operation-ledger/cli'], { cwd: process.cwd() });
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
    '--json',
  ];
  const killed = await ledger(args, (kill) => {
    const poll = setInterval(async () => {
      if ((await resultLines()) >= LINES / 2) {
        clearInterval(poll);
        kill();
      }
    }, 20);
  });
  expect(killed.signal).toBe('SIGKILL');
  const before = await resultLines();
  expect(before).toBeGreaterThanOrEqual(LINES / 2);
  expect(before).toBeLessThan(LINES);

  const rerun = await ledger(args);
  expect(rerun.stderr).toBe('');
  expect(rerun.code).toBe(0);
  const summary = JSON.parse(rerun.stdout.trim());
  expect(summary.lines).toBe(LINES);
  expect(summary.acquired + summary.replayed).toBe(LINES);
  expect(summary.replayed).toBeGreaterThanOrEqual(before);
  expect(summary).toMatchObject({ conflicts: 0, inProgress: 0, refused: 0, interrupted: false });
  expect(await resultLines()).toBe(LINES);

  const claims = await claimsPerStream(world.ledger);
  expect(claims.size).toBe(LINES);
  expect([...claims.values()].every((n) => n === 1)).toBe(true);
  const sample = await world.sdk.getOperation(
    world.sdk.operationIdOf({
      tenant: 'acme',
      source: 'shop',
      action: 'invoice.create',
      subject: String(LINES),
    }),
  );
  expect(sample.state).toBe('confirmed');
}, 600_000);
