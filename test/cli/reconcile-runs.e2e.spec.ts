// `ledger reconcile --destination …` against a real in-process ledger: the export streamed from a
// file, the run followed to its end, the summary counted per category and action; the second
// effect recorded on the operation's stream exactly once; list, show and items; refusals and an
// unreachable ledger as exit statuses.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { key, settled, startCliWorld, type CliWorld } from './support/cli-harness.js';

let world: CliWorld;
let order1: string;
let order2: string;
let firstRun: string;
const T = ['--tenant', 'acme'];

/** Claims and confirms `subject` with `ref`; returns the operation id. */
async function confirmed(subject: string, ref: string): Promise<string> {
  const c = await world.sdk.worker.claim({ key: key(subject), payload: { subject }, workerId: 'w1' });
  if (c.kind !== 'acquired') throw new Error('acquired expected');
  await world.sdk.worker.confirm(c.operationId, c.fencingToken, { destinationRef: ref });
  return c.operationId;
}

const duplicatesOn = async (id: string) =>
  (await world.sdk.operations.history(id)).events.filter((e) => e.type === 'DuplicateEffectDetected');

beforeAll(async () => {
  world = await startCliWorld();
  order1 = await confirmed('order:1', 'INV-1');
  order2 = await confirmed('order:2', 'INV-2');
  await settled(world);
  // The billing system's export: order 1's invoice, a second invoice for order 1 made by a job
  // that bypassed the ledger, order 2's invoice, and an invoice that names no operation.
  const csv = [
    'id,reference,memo',
    `INV-1,${order1},first`,
    `INV-1-AGAIN,${order1},rogue re-run`,
    `INV-2,${order2.toUpperCase()},second`,
    'INV-77,,typed by hand',
  ].join('\n');
  await writeFile(join(world.dir, 'billing.csv'), `${csv}\n`);
  await writeFile(join(world.dir, 'billing.csv.gz'), gzipSync(`${csv}\n`));
  await writeFile(join(world.dir, 'orders.ndjson'), '{"order":1}\n{"order":2}\n{"order":3}\n');
});
afterAll(() => world.close());

const START = ['reconcile', ...T, '--action', 'invoice.create', '--poll', '50'];

it('uploads the export, follows the run and prints the summary per category and action', async () => {
  const r = await world.cli([...START, '--destination', 'billing.csv']);
  expect(r.stderr).toBe(''); // no progress bar drawn on a non-terminal
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/status\s*│ completed/);
  expect(r.stdout).toMatch(/CATEGORY\s*│ TOTAL\s*│ invoice\.create/);
  expect(r.stdout).toMatch(/│ matched\s*│ 2\s*│ 2\s*│/);
  expect(r.stdout).toMatch(/│ duplicate_effect\s*│ 1\s*│ 1\s*│/);
  expect(r.stdout).toMatch(/│ orphan\s*│ 1\s*│ 1\s*│/); // counted under the run's action
  expect(r.stdout).toMatch(/│ missing_at_destination\s*│ 0\s*│/);
  expect(r.stdout).toMatch(/│ recorded\s*│ 1\s*│/);
  firstRun = /run\s*│ ([0-9a-f-]{36})/.exec(r.stdout)![1]!;

  // The second invoice is a DuplicateEffectDetected on order 1's stream, found by reconciliation.
  const events = await duplicatesOn(order1);
  expect(events).toHaveLength(1);
  expect(events[0]!.data).toMatchObject({ source: 'reconciliation', incomingRef: 'INV-1-AGAIN' });
  expect(await duplicatesOn(order2)).toHaveLength(0);
});

it('with --json, a gzipped export and source intents: exact totals, and nothing recorded twice', async () => {
  const r = await world.cli([
    ...START,
    '--destination',
    'billing.csv.gz',
    '--source',
    'orders.ndjson',
    '--source-key',
    'subject=order:${order},source=shop',
    '--json',
  ]);
  expect(r.code).toBe(0);
  const [run] = r.json();
  expect(run).toMatchObject({ status: 'completed', destinationRows: 4, sourceRows: 3 });
  expect(run.totals.byCategory).toEqual({
    matched: 2,
    fields_differ: 0,
    missing_at_destination: 0,
    duplicate_effect: 1,
    unknown_found: 0,
    unconfirmed_found: 0,
    orphan: 1,
    never_claimed: 1, // order 3: in the shop, never claimed
    not_confirmed: 0,
  });
  expect(run.totals.outcomes).toEqual({ already_recorded: 1 });
  expect(await duplicatesOn(order1)).toHaveLength(1);
});

it('lists the runs, shows one, pages its items and downloads them as CSV', async () => {
  const list = await world.cli(['reconcile', 'list', ...T, '--json']);
  expect(list.code).toBe(0);
  const runs = list.json();
  expect(runs).toHaveLength(2);
  expect(runs.map((run) => run.id)).toContain(firstRun);
  const id = firstRun;
  const table = await world.cli(['reconcile', 'list', ...T]);
  expect(table.stdout).toContain('matched 2, duplicate_effect 1, orphan 1');

  const show = await world.cli(['reconcile', 'show', id, ...T]);
  expect(show.code).toBe(0);
  expect(show.stdout).toContain(`ledger reconcile items ${id}`);

  const dup = await world.cli(['reconcile', 'items', id, ...T, '--category', 'duplicate_effect', '--json']);
  expect(dup.json()).toEqual([
    expect.objectContaining({ category: 'duplicate_effect', recordId: 'INV-1-AGAIN', outcome: 'recorded' }),
  ]);
  const csv = await world.cli(['reconcile', 'items', id, ...T, '--csv', 'report.csv']);
  expect(csv.code).toBe(0);
  const lines = (await readFile(join(world.dir, 'report.csv'), 'utf8')).trim().split('\r\n');
  expect(lines[0]).toBe(
    'seq,category,operationId,action,subject,recordId,reference,line,state,destinationRef,firstSeen,ageMs,outcome,detail',
  );
  expect(lines).toHaveLength(5); // header + 2 matched, 1 duplicate, 1 orphan
  expect(lines.filter((l) => l.includes('INV-77'))).toEqual([expect.stringContaining(',orphan,')]);
});

it('answers usage errors with 2, a refused upload with 1 and an unreachable ledger with 3', async () => {
  const noFormat = await world.cli([...START, '--destination', 'orders.txt']);
  expect(noFormat.code).toBe(2);
  expect(noFormat.stderr).toContain('--format');
  const sourceAlone = await world.cli([...START, '--from', '1d', '--to', '0s', '--source', 'orders.ndjson']);
  expect(sourceAlone.code).toBe(2);
  expect(sourceAlone.stderr).toContain('--source needs --destination');

  await writeFile(join(world.dir, 'broken.csv'), 'id,reference\n,abc\n');
  const before = (await world.cli(['reconcile', 'list', ...T, '--json'])).json().length;
  const refused = await world.cli([...START, '--destination', 'broken.csv']);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain('invalid-upload');
  expect(refused.stderr).toContain('rows[1].id');
  expect((await world.cli(['reconcile', 'list', ...T, '--json'])).json()).toHaveLength(before);

  const down = await world.cli([...START, '--destination', 'billing.csv', '--url', 'http://127.0.0.1:9']);
  expect(down.code).toBe(3);
});

it('keeps the report form without --destination', async () => {
  const r = await world.cli([...START, '--from', '1d', '--to', '2099-01-01', '--json']);
  expect(r.code).toBe(0);
  expect(r.json()[0].totals).toMatchObject({ sourceOperations: 2 });
});

it('--fail-on exits 1 when the run found a listed category (scheduled runs), 0 otherwise', async () => {
  const failing = await world.cli([
    ...START,
    '--destination',
    'billing.csv',
    '--fail-on',
    'orphan,duplicate_effect',
  ]);
  expect(failing.code).toBe(1);
  expect(failing.stderr).toMatch(/found orphan 1, duplicate_effect 1 \(--fail-on\)/);
  const passing = await world.cli([
    ...START,
    '--destination',
    'billing.csv',
    '--fail-on',
    'missing_at_destination',
  ]);
  expect(passing.code).toBe(0);
  expect((await world.cli([...START, '--destination', 'billing.csv', '--fail-on', 'typo'])).code).toBe(2);
});
