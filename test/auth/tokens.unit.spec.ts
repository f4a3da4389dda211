// API key tokens: high-entropy, prefixed so the id can be looked up, stored as SHA-256 only.
import { generateToken, isKeyId, parseToken, tokenWithId } from '../../src/auth/api-key-token.js';
import { presentedCredentials } from '../../src/auth/bearer-token.js';
import { hashToken, tokenMatches } from '../../src/auth/secret-hash.js';

describe('tokens', () => {
  it('are olk_<24 hex id>_<43 base64url = 256-bit secret> and parse back to their id', () => {
    const { id, token } = generateToken();
    expect(token).toMatch(/^olk_[0-9a-f]{24}_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token.split('_').slice(2).join('_'), 'base64url')).toHaveLength(32);
    expect(parseToken(token)).toEqual({ id, token });
    expect(isKeyId(id)).toBe(true);
  });

  it('never repeat (1000 draws) and keep the id on rotation', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => generateToken().token));
    expect(tokens.size).toBe(1000);
    const { id } = generateToken();
    const a = tokenWithId(id);
    const b = tokenWithId(id);
    expect(a.id).toBe(id);
    expect(a.token).not.toBe(b.token);
  });

  it.each([
    ['olk_abc_def'],
    ['olk_' + 'g'.repeat(24) + '_' + 'A'.repeat(43)],
    ['olk_' + 'a'.repeat(24) + '_' + 'A'.repeat(42)],
    [''],
    ['Bearer x'],
  ])('refuses %j', (t) => expect(parseToken(t)).toBeNull());
});

describe('hashing', () => {
  it('stores SHA-256 hex and matches only the exact token, in constant time', () => {
    const { token } = generateToken();
    const hash = hashToken(token);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(tokenMatches(token, hash)).toBe(true);
    expect(tokenMatches(token + 'x', hash)).toBe(false);
    expect(tokenMatches(token, null)).toBe(false);
    expect(tokenMatches(token, 'not-a-hash')).toBe(false);
  });
});

describe('Authorization header', () => {
  it.each([
    [undefined, 'none'],
    ['Bearer olk_x', 'bearer'],
    ['bearer   olk_x', 'bearer'],
    ['Basic abc', 'malformed'],
    ['Bearer', 'malformed'],
    ['Bearer a b', 'malformed'],
    [['Bearer a', 'Bearer b'], 'malformed'],
    ['Bearer ' + 'a'.repeat(2000), 'malformed'],
  ])('%j → %s', (header, kind) => {
    expect(presentedCredentials(header as any).kind).toBe(kind);
  });
});
