// The console computes operationIds in the browser (the protocol's UUID v5); they must equal the
// ledger's for every key, or "find by key" opens the wrong operation.
import fc from 'fast-check';
import { canonicalKey, operationIdOf } from '../../packages/console/src/operation-id.js';
import { canonicalKey as ledgerCanonicalKey, operationIdFor } from '../../src/ledger/operation-key.js';

const part = fc.string({ minLength: 1, maxLength: 20, unit: 'grapheme' }).map((s) => s.normalize('NFC'));

describe('console operationId', () => {
  it('is the README example', async () => {
    const key = { tenant: 'acme', source: 'shop', action: 'invoice.create', subject: 'order:812' };
    expect(canonicalKey(key)).toBe('acme/shop/invoice.create/order%3A812@1');
    expect(await operationIdOf(key)).toBe(operationIdFor({ ...key, revision: 1 }));
  });

  it("equals the ledger's for any key (canonical form and UUID v5)", async () => {
    await fc.assert(
      fc.asyncProperty(
        part,
        part,
        part,
        part,
        fc.integer({ min: 1, max: 2_147_483_647 }),
        async (t, s, a, subj, r) => {
          const key = { tenant: t, source: s, action: a, subject: subj, revision: r };
          expect(canonicalKey(key)).toBe(ledgerCanonicalKey(key));
          expect(await operationIdOf(key)).toBe(operationIdFor(key));
        },
      ),
      { numRuns: 300 },
    );
  });
});
