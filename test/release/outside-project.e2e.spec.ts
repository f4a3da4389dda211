// What an outside project does with the release tarballs (scripts/release.mjs, README "A worker with the SDK"):
// `npm init -y`, install the CLI tarball on its own, then the SDK's, type-check a worker with
// `tsc --strict` and run it against a ledger, and run `npx ledger --help`. The tarballs come from
// files; the registry is asked only about their public dependencies, npm's cache first
// (`--prefer-offline`: `npm ci` left their tarballs there; npm may still fetch their metadata). The packages' dist/ is what `npm ci`
// built (rebuilt here only when a source is newer), so the test costs two small npm installs.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LedgerClient } from '@operation-ledger/client';
import { buildUnlessFresh } from '../support/build-unless-fresh.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';

const ROOT = process.cwd();
const execFileAsync = promisify(execFile);
const VERSION = JSON.parse(readFileSync(join(ROOT, 'packages/cli/package.json'), 'utf8')).version as string;
const TYPES_NODE = JSON.parse(readFileSync(join(ROOT, 'node_modules/@types/node/package.json'), 'utf8'))
  .version as string;

let dir: string;
let project: string;
let ledger: TestLedger;
// The outside project's commands see none of this repository's npm settings (`npm test` passes
// them down as npm_* variables) nor Jest's NODE_OPTIONS.
const outside = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) && name !== 'NODE_OPTIONS'),
);
// Asynchronous: the ledger answers from this process while a child runs.
const run = async (cmd: string, args: string[], env: NodeJS.ProcessEnv = {}) =>
  (await execFileAsync(cmd, args, { cwd: project, encoding: 'utf8', env: { ...outside, ...env } })).stdout;
const npm = (...args: string[]) => run('npm', [...args, '--prefer-offline', '--no-audit', '--no-fund']);

beforeAll(async () => {
  buildUnlessFresh(
    ROOT,
    'packages/cli/dist/bin.js',
    ['packages/cli/src', 'packages/client/src', 'packages/protocol/src'],
    ['run', 'build', '-w', '@operation-ledger/cli'],
  );
  dir = mkdtempSync(join(tmpdir(), 'ledger-outside-'));
  project = join(dir, 'worker');
  mkdirSync(project);
  // Packing the tarballs, `npm init` and the ledger's start do not depend on each other and mostly
  // wait (npm, PostgreSQL): they run at the same time.
  const release = execFileAsync(
    'node',
    ['scripts/release.mjs', '--skip-build', '--out', join(dir, 'release')],
    {
      cwd: ROOT,
      env: outside,
    },
  );
  const init = (async () => {
    await run('npm', ['init', '-y']);
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ ...manifest, type: 'module' }));
  })();
  const settled = await Promise.allSettled([startTestLedger('postgres'), release, init]);
  if (settled[0].status === 'fulfilled') ledger = settled[0].value; // closed by afterAll in any case
  for (const s of settled) if (s.status === 'rejected') throw s.reason;
});
afterAll(async () => {
  await ledger?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('installs the CLI tarball on its own and runs `npx ledger --help`', async () => {
  await npm('install', join(dir, `release/operation-ledger-cli-${VERSION}.tgz`));
  expect(await run('npx', ['--no-install', 'ledger', '--help'])).toMatch(/^Usage: ledger/);
});

it('installs the SDK tarball, type-checks a worker with tsc --strict and runs it: once executed, then replayed', async () => {
  await npm(
    'install',
    join(dir, `release/operation-ledger-client-${VERSION}.tgz`),
    `@types/node@${TYPES_NODE}`,
  );
  copyFileSync(join(ROOT, 'test/release/outside-project/worker.ts'), join(project, 'worker.ts'));
  const tsconfig = {
    compilerOptions: { strict: true, target: 'ES2022', module: 'NodeNext', outDir: 'out', types: ['node'] },
    files: ['worker.ts'],
  };
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
  await run('node', [join(ROOT, 'node_modules/typescript7/bin/tsc'), '-p', 'tsconfig.json']);

  const env = { LEDGER_URL: ledger.url, LEDGER_TOKEN: ledger.rootToken };
  const first = (await run('node', ['out/worker.js'], env)).trim().split(' ');
  const second = (await run('node', ['out/worker.js'], env)).trim().split(' ');
  expect(first[0]).toBe('executed');
  expect(second).toEqual(['replayed', first[1]]);
  // The ledger recorded one confirmed operation with the invoice as its reference.
  const sdk = new LedgerClient({ baseUrl: ledger.url, token: ledger.rootToken });
  const key = { tenant: 'acme', source: 'shop', action: 'invoice.create', subject: 'order:1001' };
  const operation = await sdk.operations.get(sdk.operationIdOf(key));
  expect(operation).toMatchObject({ state: 'confirmed', attempt: 1 });
  expect(JSON.stringify(operation)).toContain(first[1]);
});

it('ships source maps that resolve: every map names files in the tarball', async () => {
  for (const pkg of ['client', 'cli']) {
    const root = join(project, 'node_modules/@operation-ledger', pkg);
    const files = (await run('find', [root, '-name', '*.map'])).trim().split('\n');
    expect(files.length).toBeGreaterThan(0);
    for (const map of files) {
      const { sources } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] };
      for (const source of sources) expect(() => readFileSync(join(map, '..', source))).not.toThrow();
    }
  }
});
