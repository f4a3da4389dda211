// `ledger backfill`: malformed lines reported per line while the rest is recorded; CSV input with
// a reference field and payload fields; a re-run replays; a changed payload is a conflict.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { operationIdOf } from '@operation-ledger/client';
import { parseKeyTemplate } from '../../packages/cli/src/backfill/key-template.js';
import { ResultsFile } from '../../packages/cli/src/backfill/results.js';
import { runBackfill } from '../../packages/cli/src/backfill/run-backfill.js';
import { claimsPerStream, key, startCliWorld, type CliWorld } from './support/cli-harness.js';

let world: CliWorld;
const BACKFILL = [
  '--tenant',
  'acme',
  '--action',
  'invoice.create',
  '--source',
  'shop',
  '--key',
  'subject=order:${order_id}',
];

const results = async (file: string) =>
  (await readFile(join(world.dir, file), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

beforeAll(async () => {
  world = await startCliWorld();
});
afterAll(() => world.close());

it('reports malformed lines per line and records every other line (exit 1)', async () => {
  const lines = [
    '{"order_id": 1, "amount": 10}',
    '{"order_id": 2, "amount": ',
    '[1, 2]',
    '{"amount": 30}',
    '{"order_id": " 5 ", "amount": 50}',
    '',
    '{"order_id": 6, "amount": 60}',
  ];
  await writeFile(join(world.dir, 'mixed.ndjson'), lines.join('\n') + '\n');
  const r = await world.cli(['backfill', 'mixed.ndjson', ...BACKFILL, '--json']);
  expect(r.code).toBe(1);
  const [summary] = r.json();
  expect(summary).toMatchObject({
    lines: 6,
    acquired: 2,
    replayed: 0,
    conflicts: 0,
    inProgress: 0,
    refused: 4,
  });
  const byLine = new Map((await results('mixed.ndjson.results.ndjson')).map((x) => [x.line, x]));
  expect(byLine.get(1)).toMatchObject({
    status: 'acquired',
    answer: 201,
    key: 'acme/shop/invoice.create/order%3A1@1',
  });
  expect(byLine.get(2)).toMatchObject({ status: 'invalid', code: 'invalid-line' });
  expect(byLine.get(2).detail).toMatch(/not JSON/);
  expect(byLine.get(3)).toMatchObject({ status: 'invalid', detail: 'not a JSON object' });
  expect(byLine.get(4)).toMatchObject({ status: 'invalid', detail: 'field order_id is missing' });
  expect(byLine.get(5)).toMatchObject({ status: 'invalid' });
  expect(byLine.get(5).detail).toContain('key.subject');
  expect(byLine.get(7)).toMatchObject({ status: 'acquired', operationId: operationIdOf(key('order:6')) });
  const op = await world.sdk.operations.get(operationIdOf(key('order:1')));
  expect(op.state).toBe('confirmed');
  expect(op.lease).toBeNull();
});

it('CSV with --ref-field and --payload-fields; a re-run replays every line; a changed payload conflicts', async () => {
  const csv =
    'order_id,amount,invoice,note\n101,10.00,INV-101,a\n102,"1,5",INV-102,"b, quoted"\n103,7,INV-103\n';
  await writeFile(join(world.dir, 'orders.csv'), csv);
  const args = [
    'backfill',
    'orders.csv',
    ...BACKFILL,
    '--ref-field',
    'invoice',
    '--payload-fields',
    'order_id,amount',
    '--results',
    'orders.results.csv',
  ];
  const first = await world.cli(args);
  expect(first.code).toBe(1); // line 4 has too few fields
  expect(first.stdout).toMatch(/LINES.*ACQUIRED.*REPLAYED.*CONFLICTS.*IN PROGRESS.*REFUSED/);
  const out = await readFile(join(world.dir, 'orders.results.csv'), 'utf8');
  expect(out.split('\n')[0]).toBe('line,key,status,operationId,answer,code,state,detail');
  expect(out).toContain('4,,invalid,,,invalid-line,,"CSV: Invalid Record Length');
  const op = await world.sdk.operations.get(operationIdOf(key('order:102')));
  expect(op).toMatchObject({ state: 'confirmed', destinationRef: 'INV-102' });
  const again = await world.cli([...args, '--json']);
  const [summary] = again.json();
  expect(summary).toMatchObject({ lines: 3, acquired: 0, replayed: 2, refused: 1 });
  // the first run's results are kept, not overwritten by the re-run's
  expect(summary.earlierResults).toBe(join(world.dir, 'orders.results.1.csv'));
  expect(await readFile(join(world.dir, 'orders.results.1.csv'), 'utf8')).toBe(out);
  expect(await readFile(join(world.dir, 'orders.results.csv'), 'utf8')).toContain(',replayed,');

  await writeFile(join(world.dir, 'changed.csv'), 'order_id,amount,invoice\n101,11.00,INV-101\n');
  const changed = await world.cli([
    'backfill',
    'changed.csv',
    ...BACKFILL,
    '--ref-field',
    'invoice',
    '--payload-fields',
    'order_id,amount',
    '--json',
  ]);
  expect(changed.code).toBe(1);
  expect(changed.json()[0]).toMatchObject({ conflicts: 1, acquired: 0 });
  const [line] = await results('changed.csv.results.ndjson');
  expect(line).toMatchObject({ status: 'conflict', answer: 422, code: 'payload-conflict' });
});

it('a key field missing from the CSV header is reported once, before anything is claimed (exit 2)', async () => {
  await writeFile(join(world.dir, 'noorder.csv'), 'id,amount\n1,10\n2,20\n3,30\n');
  const r = await world.cli(['backfill', 'noorder.csv', ...BACKFILL]);
  expect(r.code).toBe(2);
  expect(r.stderr.match(/--key reads field order_id/g)).toHaveLength(1);
  expect(r.stderr).toContain('columns: id, amount');
  await expect(readFile(join(world.dir, 'noorder.csv.results.ndjson'))).rejects.toThrow();
  expect((await claimsPerStream(world.ledger)).get('operation-acme/shop/invoice.create/order%3A1@1')).toBe(1); // order:1 only from the first test
});

it('progress moves per finished line, not per chunk of 500', async () => {
  await writeFile(join(world.dir, 'progress.ndjson'), '{"order_id":"p1"}\n{"order_id":"p2"}\nnot json\n');
  const steps: number[] = [];
  const file = new ResultsFile(join(world.dir, 'progress.results.ndjson'));
  const summary = await runBackfill(
    world.sdk,
    {
      input: join(world.dir, 'progress.ndjson'),
      format: 'ndjson',
      tenant: 'acme',
      source: 'shop',
      action: 'invoice.create',
      template: parseKeyTemplate('subject=order:${order_id}'),
      chunkSize: 500,
      concurrency: 1,
      leaseMs: 60_000,
      workerId: 'ledger-backfill',
    },
    file,
    (n) => steps.push(n),
  );
  await file.close();
  expect(summary).toMatchObject({ lines: 3, acquired: 2, refused: 1 });
  expect(steps).toEqual([1, 1, 1]);
});

it('lines repeating a key within one chunk are claimed once (the repeat replays)', async () => {
  await writeFile(
    join(world.dir, 'repeat.ndjson'),
    '{"order_id":"r1"}\n{"order_id":"r1"}\n{"order_id":"r2"}\n',
  );
  const r = await world.cli(['backfill', 'repeat.ndjson', ...BACKFILL, '--json']);
  expect(r.code).toBe(0);
  expect(r.json()[0]).toMatchObject({ lines: 3, acquired: 2, replayed: 1 });
  const claims = await claimsPerStream(world.ledger);
  expect(claims.get('operation-acme/shop/invoice.create/order%3Ar1@1')).toBe(1);
});

it('the shipped sample works as the walk-through shows', async () => {
  const sample = join(process.cwd(), 'packages/cli/sample.ndjson');
  const r = await world.cli([
    'backfill',
    sample,
    ...BACKFILL,
    '--ref-field',
    'invoice',
    '--results',
    'sample.results.ndjson',
  ]);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/│\s*10\s*│\s*10\s*│\s*0\s*│/);
});
