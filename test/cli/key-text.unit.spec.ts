import { operationIdOf } from '@operation-ledger/client';
import { parseOperationRef } from '../../packages/cli/src/operation-ref.js';
import { keyText } from '../../packages/cli/src/output/render.js';

// `ledger ops list`, `review` and `ops history` print keys that an operator copies into
// `ledger ops show|history|resolve <key>` (docs/operating.md): what is printed must name the same
// operation when read back, whatever characters the key's parts hold.
describe('the key the CLI prints', () => {
  const key = (subject: string, source = 'shop') => ({
    tenant: 'acme',
    source,
    action: 'invoice.create',
    subject,
    revision: 2,
  });

  it('is read back as the same operation when a part holds / or %', () => {
    for (const k of [key('order/812'), key('50%off'), key('a%2Fb'), key('x', 'eu/shop'), key('ü€😀/x@y@3')]) {
      expect(parseOperationRef(keyText(k)).operationId).toBe(operationIdOf(k));
    }
  });

  it('stays as typed for the usual keys', () => {
    expect(keyText(key('order:812'))).toBe('acme/shop/invoice.create/order:812@2');
    expect(keyText(key('Bestellung:ü€😀 #1@5'))).toBe('acme/shop/invoice.create/Bestellung:ü€😀 #1@5@2');
    expect(keyText(key('order/812'))).toBe('acme/shop/invoice.create/order%2F812@2');
  });
});
