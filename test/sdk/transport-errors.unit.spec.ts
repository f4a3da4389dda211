// A new user's worker pointed at a port nothing listened on got "POST /v1/claims: ledger
// unavailable after 2 attempt(s) (fetch failed)" — neither where it tried nor why; and a
// baseUrl ending in /v1 was only noticed from a 404 for /v1/v1/claims.
import { createServer } from 'node:net';
import { LedgerClient, LedgerUnavailableError } from '@operation-ledger/client';

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

it('a ledger that cannot be reached: the error names the address and the network error', async () => {
  const port = await closedPort();
  const sdk = new LedgerClient({
    baseUrl: `http://127.0.0.1:${port}`,
    retry: { attempts: 2, baseDelayMs: 1 },
  });
  const refused = sdk.transport.request('POST', '/v1/claims', { body: {} });
  await expect(refused).rejects.toBeInstanceOf(LedgerUnavailableError);
  await expect(refused).rejects.toThrow(`http://127.0.0.1:${port}`);
  await expect(refused).rejects.toThrow(/ECONNREFUSED/);
});

it('a baseUrl ending in /v1 is refused at construction, saying what to give', () => {
  expect(() => new LedgerClient({ baseUrl: 'http://127.0.0.1:3000/v1' })).toThrow(/without \/v1/);
  expect(() => new LedgerClient({ baseUrl: 'http://127.0.0.1:3000/v1/' })).toThrow(/without \/v1/);
  expect(new LedgerClient({ baseUrl: 'http://127.0.0.1:3000/' }).transport.baseUrl).toBe(
    'http://127.0.0.1:3000',
  );
});

it('a baseUrl that is not an http(s) URL is refused saying what was given (an empty LEDGER_URL, say)', () => {
  expect(() => new LedgerClient({ baseUrl: '' })).toThrow(/baseUrl must be an http\(s\) URL.*got ""/);
  expect(() => new LedgerClient({ baseUrl: 'localhost:3000' })).toThrow(/got "localhost:3000"/);
});
