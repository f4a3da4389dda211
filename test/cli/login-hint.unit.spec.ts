import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { FetchLike } from '@operation-ledger/client';
import { EXIT, runCli } from '../../packages/cli/src/program.js';

const HINT = 'sign in once with `ledger login --url URL --token olk_…`, or set LEDGER_TOKEN';

/** Runs `ledger …args` with no profile, no LEDGER_URL and no LEDGER_TOKEN: a fresh user's first try. */
async function freshRun(args: string[], fetch: FetchLike) {
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: () => true, isTTY: false },
    stderr: { write: (s: string) => ((stderr += s), true), isTTY: false },
    stdin: Readable.from([]),
    env: { LEDGER_CONFIG: join(tmpdir(), `ledger-no-config-${process.pid}.json`) },
    cwd: tmpdir(),
    fetch,
  });
  return { code, stderr };
}

describe('ledger without any API key (packages/cli/README.md)', () => {
  it('hints ledger login when the ledger answers 401', async () => {
    const unauthenticated: FetchLike = async () =>
      new Response(
        JSON.stringify({
          type: 'about:blank',
          title: 'Unauthenticated',
          status: 401,
          code: 'unauthenticated',
        }),
        { status: 401, headers: { 'content-type': 'application/problem+json' } },
      );
    const { code, stderr } = await freshRun(['ops', 'list'], unauthenticated);
    expect(code).toBe(EXIT.refused);
    expect(stderr).toContain(HINT);
  });

  it('hints ledger login when nothing answers at the default URL, besides saying so', async () => {
    const urls: string[] = [];
    const refused: FetchLike = async (url) => {
      urls.push(String(url));
      throw new TypeError('fetch failed');
    };
    const { code, stderr } = await freshRun(['review', '--reason', 'unknown'], refused);
    expect(code).toBe(EXIT.unavailable);
    expect(urls[0]).toMatch(/^http:\/\/127\.0\.0\.1:3000\//);
    expect(stderr).toContain('unavailable');
    expect(stderr).toContain(HINT);
  });
});
