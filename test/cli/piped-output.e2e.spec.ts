// The CLI's output piped into a reader that stops early (`| head -1`): the closed pipe ends the
// CLI quietly, as it ends `cat` or `grep`, instead of an unhandled EPIPE stack trace and exit 1.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { buildUnlessFresh } from '../support/build-unless-fresh.js';

const BIN = join(process.cwd(), 'packages/cli/dist/bin.js');

beforeAll(() => {
  buildUnlessFresh(
    process.cwd(),
    'packages/cli/dist/bin.js',
    ['packages/cli/src', 'packages/client/src', 'packages/protocol/src'],
    ['run', 'build', '-w', '@operation-ledger/cli'],
  );
}, 120_000);

it.each([['--help'], ['ops list --help']])('`ledger %s | head -1` prints one line and exits 0', (args) => {
  const run = spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" "${BIN}" ${args} | head -1`], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  expect(run.stdout).toMatch(/^Usage: ledger/);
  expect(run.stdout.split('\n').filter(Boolean)).toHaveLength(1);
  expect(run.stderr).not.toMatch(/EPIPE|Error/);
  expect(run.status).toBe(0);
});
