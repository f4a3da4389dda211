import { externalLedger } from '../../demo/external-ledger.js';

// `npm run demo -- --ledger-url <url>` (or LEDGER_URL) runs the demo against a ledger already
// running, e.g. `docker compose up` (README "In a container"): that ledger refuses requests
// without an API key (docs/security.md), so the demo sends LEDGER_TOKEN when it is set.
describe('the demo against a running ledger', () => {
  it('sends LEDGER_TOKEN as the bearer key', () => {
    const ledger = externalLedger('http://127.0.0.1:3000/', { LEDGER_TOKEN: 'olk_demo_key' });
    expect(ledger.url).toBe('http://127.0.0.1:3000');
    expect(ledger.headers).toEqual({ authorization: 'Bearer olk_demo_key' });
  });

  it('sends no key when none is set (a ledger run with LEDGER_AUTH=disabled)', () => {
    expect(externalLedger('http://127.0.0.1:3000', {}).headers).toBeUndefined();
  });
});
