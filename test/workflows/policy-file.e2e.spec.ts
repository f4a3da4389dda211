// LEDGER_POLICY_FILE: policies applied at start-up are versioned and audited like API changes,
// an unchanged file writes nothing on restart, and an invalid one stops the start.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestLedger } from '../support/test-ledger.js';

it('applies the file as versions by actor policy-file, once', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ledger-policies-'));
  const file = join(dir, 'policies.json');
  await writeFile(
    file,
    JSON.stringify([
      { tenant: 'acme', action: 'payment.capture', policy: { replayAllowed: false, maxLeaseMs: 60_000 } },
      { tenant: 'acme', action: '*', policy: { defaultLeaseMs: 10_000 } },
    ]),
  );
  const first = await startTestLedger('postgres', { policyFile: file, dataDir: join(dir, 'data') });
  const policy = await first.client.get('/v1/tenants/acme/policies/payment.capture');
  expect(policy.body).toMatchObject({ version: 1, setBy: 'policy-file', policy: { replayAllowed: false } });
  const fallback = await first.client.get('/v1/tenants/acme/policies/other.action');
  expect(fallback.body).toMatchObject({ source: 'tenant-default', policy: { defaultLeaseMs: 10_000 } });
  await first.close();

  const second = await startTestLedger('postgres', { policyFile: file, dataDir: join(dir, 'data') });
  const history = await second.client.get('/v1/tenants/acme/policies/payment.capture/history');
  expect(history.body.versions).toHaveLength(1);
  await second.close();
});

it('refuses to start with an invalid policy file, naming the entry and field', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ledger-policies-'));
  const file = join(dir, 'policies.json');
  await writeFile(file, JSON.stringify([{ tenant: 'acme', action: 'x.y', policy: { maxLeaseMs: 1 } }]));
  const listening = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;
  const before = listening();
  await expect(startTestLedger('postgres', { policyFile: file })).rejects.toThrow(
    /\[0\].*policy\.maxLeaseMs/,
  );
  // nothing of the refused start left listening (its reserved port had kept `jest -i` from exiting)
  expect(listening()).toBe(before);
});
