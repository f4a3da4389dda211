// operationIdOf, providerKeyOf and key validation computed by the SDK (through the protocol package)
// agree with the ledger's domain for any key, and with the README's namespace and example.
import fc from 'fast-check';
import {
  keyIssues,
  operationIdOf,
  providerKeyOf,
  OPERATION_ID_NAMESPACE,
  InvalidKeyError,
  validateKey,
} from '@operation-ledger/client';
import { operationIdFor, OPERATION_ID_NAMESPACE as SERVER_NS } from '../../src/ledger/operation-key.js';
import { parseOperationKey } from '../../src/ledger/parse-operation-key.js';
import { providerIdempotencyKey } from '../../src/ledger/step-name.js';
import { v5 as uuidv5 } from 'uuid';

const part = fc.oneof(
  fc.string({ minLength: 1, maxLength: 20 }),
  fc.constantFrom('order:812', 'Café', 'a/b@c', "it's (x)*!"),
);

describe('operation identity computed locally', () => {
  it('uses the namespace the README documents', () => {
    expect(OPERATION_ID_NAMESPACE).toBe(SERVER_NS);
    expect(
      operationIdOf({ tenant: 'acme', source: 'shop', action: 'invoice.create', subject: 'order:812' }),
    ).toBe(uuidv5('acme/shop/invoice.create/order%3A812@1', '63eeae26-aca5-40f1-b1c3-d04d32d0e365'));
  });

  it('gives the same operationId and provider keys as the ledger for any valid key', () => {
    fc.assert(
      fc.property(
        part,
        part,
        part,
        part,
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        (tenant, source, action, subject, revision) => {
          const parsed = parseOperationKey({ tenant, source, action, subject, revision });
          fc.pre(parsed.ok);
          if (!parsed.ok) return;
          const key = { tenant, source, action, subject, revision };
          expect(operationIdOf(key)).toBe(operationIdFor(parsed.value));
          expect(providerKeyOf(key, 'create-invoice')).toBe(
            providerIdempotencyKey(parsed.value, 'create-invoice'),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses exactly what the ledger refuses, with the same fields and messages', () => {
    const anyPart = fc.oneof(
      part,
      fc.constantFrom('', ' ORD-9', 'ORD-9 ', 'e\u0301', 'a\u200Bb', '\uD800', 'x'.repeat(257)),
      fc.constant(undefined),
      fc.integer(),
    );
    fc.assert(
      fc.property(
        anyPart,
        anyPart,
        anyPart,
        anyPart,
        fc.oneof(fc.constant(undefined), fc.integer({ min: -2, max: 3 }), fc.double()),
        (tenant, source, action, subject, revision) => {
          const input = { tenant, source, action, subject, ...(revision === undefined ? {} : { revision }) };
          const server = parseOperationKey(input);
          expect(keyIssues(input)).toEqual(server.ok ? [] : server.issues);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('guides to NFC instead of normalising silently', () => {
    const key = { tenant: 'acme', source: 'shop', action: 'invoice.create', subject: 'Cafe\u0301' };
    expect(() => validateKey(key)).toThrow(InvalidKeyError);
    expect(() => validateKey(key)).toThrow(
      "key.subject: subject must be in Unicode NFC (normalise with String.normalize('NFC'))",
    );
    expect(operationIdOf({ ...key, subject: key.subject.normalize('NFC') })).toBe(
      operationIdOf({ ...key, subject: 'Café' }),
    );
  });

  it('refuses a tenant or action of "." or "..", which no URL path can name; a source or subject may be one', () => {
    const key = { tenant: 'acme', source: 'shop', action: 'invoice.create', subject: 'order:1' };
    for (const dots of ['.', '..']) {
      for (const part of ['tenant', 'action'] as const) {
        const message = `${part} must not be "." or ".." (a URL path cannot name it)`;
        expect(keyIssues({ ...key, [part]: dots })).toEqual([{ field: `key.${part}`, message }]);
        expect(parseOperationKey({ ...key, [part]: dots }).ok).toBe(false);
      }
      for (const part of ['source', 'subject'] as const) {
        expect(keyIssues({ ...key, [part]: dots })).toEqual([]);
        expect(parseOperationKey({ ...key, [part]: dots }).ok).toBe(true);
      }
    }
    expect(keyIssues({ ...key, tenant: '...', action: '.x' })).toEqual([]);
  });
});
