import {
  AUDIT_STREAM_PREFIX,
  MAX_KEY_PART_BYTES,
  MAX_REVISION,
  OPERATION_ID_NAMESPACE,
  OPERATION_STREAM_PREFIX,
  auditStreamName,
  canonicalKey,
  operationIdFor,
  operationStreamName,
  parseOperationKey,
  type OperationKey,
  type ValidationIssue,
} from '../../src/ledger/index.js';
import { KEY, referenceUuidV5 } from './support/fixtures.js';

const RAW = { tenant: 'acme-gmbh', source: 'shopify', action: 'invoice.create', subject: 'order:812' };
const UUID_V5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function parsed(input: unknown): OperationKey {
  const r = parseOperationKey(input);
  if (!r.ok) throw new Error(`expected a valid key, got ${JSON.stringify(r.issues)}`);
  return r.value;
}
function issues(input: unknown): readonly ValidationIssue[] {
  const r = parseOperationKey(input);
  if (r.ok) throw new Error(`expected an invalid key, got ${JSON.stringify(r.value)}`);
  return r.issues;
}
const idOf = (input: object): string => operationIdFor(parsed(input));

describe('parseOperationKey: shape', () => {
  it('accepts the four parts and defaults revision to 1', () => {
    expect(parsed(RAW)).toEqual({ ...RAW, revision: 1 });
  });

  it('keeps an explicit revision', () => {
    expect(parsed({ ...RAW, revision: 2 })).toEqual({ ...RAW, revision: 2 });
  });

  it.each([[null], [undefined], ['acme/shopify'], [42], [[RAW]]])(
    'refuses a key that is not an object: %j',
    (input) => {
      expect(issues(input)).toEqual([{ field: 'key', message: 'key must be an object' }]);
    },
  );

  it.each(['tenant', 'source', 'action', 'subject'])(
    'refuses a missing, null, non-string or empty %s',
    (part) => {
      const { [part as keyof typeof RAW]: _omit, ...rest } = RAW;
      expect(issues(rest)).toEqual([{ field: `key.${part}`, message: `${part} is required` }]);
      expect(issues({ ...RAW, [part]: null })).toEqual([
        { field: `key.${part}`, message: `${part} is required` },
      ]);
      expect(issues({ ...RAW, [part]: 812 })).toEqual([
        { field: `key.${part}`, message: `${part} must be a string` },
      ]);
      expect(issues({ ...RAW, [part]: '' })).toEqual([
        { field: `key.${part}`, message: `${part} must not be empty` },
      ]);
    },
  );

  it('reports every problem at once, each with its field', () => {
    expect(
      issues({ tenant: '', source: ' x', subject: 'ok', revision: 0, colour: 'red' }).map((i) => i.field),
    ).toEqual(['key.tenant', 'key.source', 'key.action', 'key.revision', 'key.colour']);
  });

  it('refuses unknown key parts (and does not take a capitalised part for the real one)', () => {
    expect(issues({ ...RAW, region: 'eu' })).toEqual([
      { field: 'key.region', message: 'unknown key part region' },
    ]);
    const { tenant: _t, ...noTenant } = RAW;
    expect(issues({ ...noTenant, Tenant: 'acme-gmbh' })).toEqual([
      { field: 'key.tenant', message: 'tenant is required' },
      { field: 'key.Tenant', message: 'unknown key part Tenant' },
    ]);
  });
});

describe('parseOperationKey: revision', () => {
  it.each([[1], [2], [MAX_REVISION]])('accepts %j', (revision) => {
    expect(parsed({ ...RAW, revision }).revision).toBe(revision);
  });
  it.each([
    [0],
    [-1],
    [1.5],
    [MAX_REVISION + 1],
    ['2'],
    [null],
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    [true],
  ])('refuses %j', (revision) => {
    expect(issues({ ...RAW, revision })).toEqual([
      { field: 'key.revision', message: `revision must be an integer from 1 to ${MAX_REVISION}` },
    ]);
  });
  it('a new revision is a different operation', () => {
    expect(idOf({ ...RAW, revision: 2 })).not.toBe(idOf(RAW));
    expect(canonicalKey(parsed({ ...RAW, revision: 2 }))).toBe(
      'acme-gmbh/shopify/invoice.create/order%3A812@2',
    );
  });
});

describe('parseOperationKey: characters', () => {
  it.each([
    ['NUL', 'ord\u0000'],
    ['tab', 'ord\t9'],
    ['newline', 'ord-9\n'],
    ['carriage return', '\rord'],
    ['DEL', 'ord\u007f9'],
    ['C1 NEL', 'ord\u00859'],
    ['ESC', '\u001b[31mord'],
  ])('refuses a control character (%s)', (_name, subject) => {
    expect(issues({ ...RAW, subject })).toEqual([
      { field: 'key.subject', message: 'subject must not contain control or invisible format characters' },
    ]);
  });

  it.each([
    ['a lone high surrogate', 'ord\uD83D'],
    ['a lone low surrogate', '\uDE00ord'],
  ])('refuses %s', (_name, subject) => {
    expect(issues({ ...RAW, subject })).toEqual([
      { field: 'key.subject', message: 'subject must not contain unpaired surrogates' },
    ]);
  });

  it.each([
    ['trailing space (C3)', 'ORD-9 '],
    ['leading space', ' ORD-9'],
    ['trailing NBSP', 'ORD-9\u00A0'],
    ['leading NBSP', '\u00A0ORD-9'],
    ['trailing ideographic space', 'ORD-9\u3000'],
    ['leading ideographic space', '\u3000ORD-9'],
    ['trailing em space', 'ORD-9\u2003'],
    ['only a space', ' '],
  ])('refuses %s — never trimmed into the other key', (_name, subject) => {
    expect(issues({ ...RAW, subject })).toEqual([
      { field: 'key.subject', message: 'subject must not start or end with white space' },
    ]);
  });

  it('accepts white space inside a part', () => {
    expect(parsed({ ...RAW, tenant: 'acme gmbh' }).tenant).toBe('acme gmbh');
  });

  it('checks every part, not only the subject', () => {
    expect(issues({ ...RAW, tenant: 'acme ', source: 'shop\u0000', action: '\u00A0x' })).toEqual([
      { field: 'key.tenant', message: 'tenant must not start or end with white space' },
      { field: 'key.source', message: 'source must not contain control or invisible format characters' },
      { field: 'key.action', message: 'action must not start or end with white space' },
    ]);
  });
});

describe('parseOperationKey: length in UTF-8 bytes', () => {
  const tooLong = {
    field: 'key.subject',
    message: `subject must be at most ${MAX_KEY_PART_BYTES} bytes of UTF-8`,
  };

  it('256 ASCII bytes are accepted, 257 refused', () => {
    expect(parsed({ ...RAW, subject: 'x'.repeat(256) }).subject).toHaveLength(256);
    expect(issues({ ...RAW, subject: 'x'.repeat(257) })).toEqual([tooLong]);
  });

  it('multi-byte characters count in bytes, not characters', () => {
    // é = 2 bytes: 128 of them are 256 bytes (ok), 129 are 258 bytes though only 129 characters
    expect(parsed({ ...RAW, subject: '\u00e9'.repeat(128) }).subject).toHaveLength(128);
    expect(issues({ ...RAW, subject: '\u00e9'.repeat(129) })).toEqual([tooLong]);
    // € = 3 bytes: 86 characters are 258 bytes
    expect(issues({ ...RAW, subject: '\u20ac'.repeat(86) })).toEqual([tooLong]);
    expect(parsed({ ...RAW, subject: '\u20ac'.repeat(85) + 'x' }).subject).toHaveLength(86);
    // 😀 = 4 bytes (2 UTF-16 units): 64 are exactly 256 bytes, 65 are too many
    expect(parsed({ ...RAW, subject: '\u{1F600}'.repeat(64) }).subject).toHaveLength(128);
    expect(issues({ ...RAW, subject: '\u{1F600}'.repeat(65) })).toEqual([tooLong]);
  });

  it('applies to every part', () => {
    expect(issues({ ...RAW, tenant: 't'.repeat(257) })).toEqual([
      { field: 'key.tenant', message: `tenant must be at most ${MAX_KEY_PART_BYTES} bytes of UTF-8` },
    ]);
  });
});

describe('Unicode spelling (C2) and case (C3)', () => {
  it('precomposed é (NFC) is accepted; e + U+0301 (NFD) is refused, never a second operation', () => {
    expect(parsed({ ...RAW, subject: 'Caf\u00e9' }).subject).toBe('Caf\u00e9');
    expect(issues({ ...RAW, subject: 'Cafe\u0301' })).toEqual([
      { field: 'key.subject', message: expect.stringContaining('NFC') },
    ]);
  });

  it('a non-NFC tenant is refused too', () => {
    expect(issues({ ...RAW, tenant: 'Mu\u0308ller' })).toEqual([
      { field: 'key.tenant', message: expect.stringContaining('NFC') },
    ]);
    expect(parsed({ ...RAW, tenant: 'M\u00fcller' }).tenant).toBe('M\u00fcller');
  });

  it('full-width and ASCII look-alikes are different operations (NFKC is not applied)', () => {
    const ids = new Set([
      idOf({ ...RAW, subject: 'Cafe' }),
      idOf({ ...RAW, subject: '\uFF23\uFF41\uFF46\uFF45' }),
      idOf({ ...RAW, subject: 'Caf\u00e9' }),
    ]);
    expect(ids.size).toBe(3);
    expect(canonicalKey(parsed({ ...RAW, subject: '\uFF23\uFF41\uFF46\uFF45' }))).toBe(
      'acme-gmbh/shopify/invoice.create/%EF%BC%A3%EF%BD%81%EF%BD%86%EF%BD%85@1',
    );
  });

  it('keys are case-sensitive: ORD-9, ord-9 and Ord-9 are three operations', () => {
    const ids = ['ORD-9', 'ord-9', 'Ord-9'].map((subject) => idOf({ ...RAW, subject }));
    expect(new Set(ids).size).toBe(3);
    expect(['ORD-9', 'ord-9', 'Ord-9'].map((subject) => canonicalKey(parsed({ ...RAW, subject })))).toEqual([
      'acme-gmbh/shopify/invoice.create/ORD-9@1',
      'acme-gmbh/shopify/invoice.create/ord-9@1',
      'acme-gmbh/shopify/invoice.create/Ord-9@1',
    ]);
  });

  it('the same document in two tenants is two operations (C4)', () => {
    expect(idOf({ ...RAW, tenant: 'beta-ag' })).not.toBe(idOf(RAW));
  });
});

describe('canonical key', () => {
  it('joins the parts as tenant/source/action/subject@revision', () => {
    expect(canonicalKey(KEY)).toBe('acme-gmbh/shopify/invoice.create/order%3A812@1');
  });

  it.each([
    ['space', 'order 812', 'order%20812'],
    ['slash', 'a/b', 'a%2Fb'],
    ['at sign', 'order@2', 'order%402'],
    ["! ' ( ) *", "!'()*", '%21%27%28%29%2A'],
    ['reserved gen-delims', ':?#[]', '%3A%3F%23%5B%5D'],
    ['percent', '100%', '100%25'],
    ['plus, comma, semicolon, equals, ampersand, dollar', '+,;=&$', '%2B%2C%3B%3D%26%24'],
    ['unreserved stay as they are', 'AZaz09-._~', 'AZaz09-._~'],
    ['é as UTF-8 bytes, upper-case hex', 'caf\u00e9', 'caf%C3%A9'],
    ['astral character', '\u{1F600}', '%F0%9F%98%80'],
    ['ideographic space inside', 'a\u3000b', 'a%E3%80%80b'],
  ])('percent-encodes outside RFC 3986 unreserved: %s', (_name, subject, encoded) => {
    expect(canonicalKey({ ...KEY, subject })).toBe(`acme-gmbh/shopify/invoice.create/${encoded}@1`);
  });

  it('encodes every part, so separators inside parts cannot make two keys collide', () => {
    const a = { ...KEY, source: 'x/y', action: 'z' };
    const b = { ...KEY, source: 'x', action: 'y/z' };
    expect(canonicalKey(a)).toBe('acme-gmbh/x%2Fy/z/order%3A812@1');
    expect(canonicalKey(b)).toBe('acme-gmbh/x/y%2Fz/order%3A812@1');
    expect(operationIdFor(a)).not.toBe(operationIdFor(b));
    const c = { ...KEY, subject: 'o@2', revision: 1 };
    const d = { ...KEY, subject: 'o', revision: 2 };
    expect(canonicalKey(c)).not.toBe(canonicalKey(d));
    expect(operationIdFor(c)).not.toBe(operationIdFor(d));
  });
});

describe('stream names', () => {
  it('decision stream is operation-<canonical key>', () => {
    expect(OPERATION_STREAM_PREFIX).toBe('operation-');
    expect(operationStreamName(KEY)).toBe('operation-acme-gmbh/shopify/invoice.create/order%3A812@1');
  });

  it('audit stream is a separate companion stream with its own prefix', () => {
    expect(auditStreamName(KEY)).toBe('audit-operation-acme-gmbh/shopify/invoice.create/order%3A812@1');
    expect(AUDIT_STREAM_PREFIX.startsWith(OPERATION_STREAM_PREFIX)).toBe(false);
    // no tenant name can make a decision stream equal another key's audit stream
    const tricky = { ...KEY, tenant: 'audit-operation-acme-gmbh' };
    expect(operationStreamName(tricky)).not.toBe(auditStreamName(KEY));
    expect(operationStreamName(tricky).startsWith(AUDIT_STREAM_PREFIX)).toBe(false);
  });
});

describe('operationId', () => {
  it('is a UUID v5 (version nibble 5, RFC variant) of the canonical key under the fixed namespace', () => {
    const id = operationIdFor(KEY);
    expect(id).toMatch(UUID_V5);
    expect(id[14]).toBe('5');
    expect(id).toBe(
      referenceUuidV5('acme-gmbh/shopify/invoice.create/order%3A812@1', OPERATION_ID_NAMESPACE),
    );
  });

  it('the namespace is fixed forever and ids are stable', () => {
    expect(OPERATION_ID_NAMESPACE).toBe('63eeae26-aca5-40f1-b1c3-d04d32d0e365');
    expect(operationIdFor({ ...KEY })).toBe(operationIdFor(KEY));
    expect(operationIdFor(KEY)).toBe('642d9cf0-6cb1-5588-9b49-ba68b3b42071');
    expect(operationIdFor(KEY)).toBe(
      referenceUuidV5(canonicalKey(KEY), '63eeae26-aca5-40f1-b1c3-d04d32d0e365'),
    );
  });

  it('a non-ASCII key hashes its percent-encoded canonical form', () => {
    const k = parsed({ ...RAW, subject: 'Caf\u00e9' });
    expect(operationIdFor(k)).toBe(
      referenceUuidV5('acme-gmbh/shopify/invoice.create/Caf%C3%A9@1', OPERATION_ID_NAMESPACE),
    );
    expect(operationIdFor(k)).toMatch(UUID_V5);
  });
});
