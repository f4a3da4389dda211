// `ledger review … --resolve`: the dry run changes nothing, a refused prompt changes nothing, a
// confirmed (or --yes) run resolves each selected operation once, recorded with the reason.
import { makeUnknown, settled, startCliWorld, type CliWorld } from './support/cli-harness.js';

let world: CliWorld;
let unknown: string[];
const T = ['--tenant', 'acme'];
const BULK = ['review', ...T, '--resolve', 'not_found', '--note', 'INC-42: billing has none of these'];

const stateOf = async (id: string) => (await world.sdk.operations.get(id)).state;
const resolutions = async (id: string) =>
  (await world.sdk.operations.history(id)).events.filter(
    (e) => e.type === 'OperationResolved' || e.data.resolution !== undefined,
  );

beforeAll(async () => {
  world = await startCliWorld();
  unknown = [];
  for (let i = 1; i <= 3; i++) {
    unknown.push(await makeUnknown(world, `order:${i}`));
    world.ledger.clock.advance(60_000); // distinct ages: the queue is oldest first
  }
  await makeUnknown(world, 'other:1', 'crm.sync');
  await settled(world);
});
afterAll(() => world.close());

it('--dry-run lists what would change and changes nothing', async () => {
  // --reason stays the filter it is without --resolve
  const r = await world.cli([...BULK, '--reason', 'unknown', '--action', 'invoice.create', '--dry-run']);
  expect(r.code).toBe(0);
  for (const id of unknown) expect(r.stdout).toContain(id);
  expect(r.stdout).toContain('unknown → released');
  expect(r.stdout).toContain('dry run: 3 operation(s) would be resolved not_found; nothing was changed');
  const json = (await world.cli([...BULK, '--action', 'invoice.create', '--dry-run', '--json'])).json();
  expect(json.map((j) => j.operationId)).toEqual(unknown);
  for (const id of unknown) expect(await stateOf(id)).toBe('unknown');
});

it('answering no to the confirmation changes nothing (exit 1); no answer at all is a no', async () => {
  const no = await world.cli([...BULK, '--action', 'invoice.create'], { stdin: 'n\n' });
  expect(no.code).toBe(1);
  expect(no.stderr).toContain('Resolve 3 unknown operation(s) in acme as not_found (→ released)?');
  const silent = await world.cli([...BULK, '--action', 'invoice.create']);
  expect(silent.code).toBe(1);
  for (const id of unknown) {
    expect(await stateOf(id)).toBe('unknown');
    expect(await resolutions(id)).toHaveLength(0);
  }
});

it('answering yes resolves each selected operation once, in order, reporting each result', async () => {
  const r = await world.cli([...BULK, '--action', 'invoice.create', '--limit', '2'], { stdin: 'yes\n' });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('2 resolved not_found, 0 refused');
  expect(r.stdout).toContain(unknown[0]);
  expect(r.stdout).toContain(unknown[1]);
  for (const id of unknown.slice(0, 2)) {
    expect(await stateOf(id)).toBe('released');
    const events = await resolutions(id);
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({
      resolution: 'not_found',
      reason: 'INC-42: billing has none of these',
    });
  }
  expect(await stateOf(unknown[2]!)).toBe('unknown');
  expect(r.stderr).not.toContain('\u001b['); // no progress bar drawn on a stderr that is not a terminal
});

it('--yes skips the question; --json reports one line per operation', async () => {
  await settled(world);
  const r = await world.cli([...BULK, '--yes', '--json']);
  expect(r.code).toBe(0);
  const lines = r.json();
  expect(lines).toHaveLength(2); // order:3 and the crm.sync one; the two resolved ones left the queue
  expect(lines.every((l) => l.ok && l.state === 'released')).toBe(true);
  expect(r.stderr).toBe('');
});

it('--resolve without --note, or confirmed in bulk, is usage (exit 2)', async () => {
  expect((await world.cli(['review', ...T, '--resolve', 'not_found'])).code).toBe(2);
  expect((await world.cli(['review', ...T, '--resolve', 'confirmed', '--note', 'x', '--yes'])).code).toBe(2);
  // the recorded text is --note: a text given as the --reason filter is refused, not recorded
  const mixed = await world.cli(['review', ...T, '--resolve', 'not_found', '--reason', 'INC-42', '--yes']);
  expect(mixed.code).toBe(2);
  expect(mixed.stderr).toContain('--note');
  expect((await world.cli(['review', ...T, '--note', 'x'])).code).toBe(2);
});
