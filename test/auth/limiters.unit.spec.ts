// Limits: per-key request rate (sliding-window counter) and SSE connections per key.
import { KeyRateLimiter } from '../../src/auth/key-rate-limiter.js';
import { SseConnectionLimiter, type SseConnectionsRefused } from '../../src/auth/sse-connection-limiter.js';
import { subscriptionRefusalProblem } from '../../src/projections/subscriptions/subscriptions-http-answer.js';
import { ProblemException } from '../../src/common/problem.exception.js';
import { DEFAULT_CONFIG } from '../../src/config/ledger-config.js';
import type { Caller } from '../../src/auth/caller.js';

describe('KeyRateLimiter', () => {
  const limiter = (limit: number, windowMs = 1000) =>
    new KeyRateLimiter({ ...DEFAULT_CONFIG, rateLimitPerKey: limit, rateLimitWindowMs: windowMs });

  it('admits `limit` requests per window per key, then refuses with Retry-After until the window slides', () => {
    const l = limiter(3, 10_000);
    const t0 = 1_000_000_000_000;
    expect([1, 2, 3].map(() => l.hit('key:a', t0).allowed)).toEqual([true, true, true]);
    const refused = l.hit('key:a', t0 + 1);
    expect(refused).toEqual({ allowed: false, retryAfterS: 10 });
    expect(l.hit('key:b', t0 + 1).allowed).toBe(true);
    // Next window: the previous window's 3 hits still weigh 3 × (1 - elapsed fraction).
    expect(l.hit('key:a', t0 + 10_000).allowed).toBe(false);
    expect(l.hit('key:a', t0 + 14_000).allowed).toBe(true); // 3 × 0.6 + 0 + 1 = 2.8 ≤ 3
    expect(l.hit('key:a', t0 + 30_000).allowed).toBe(true); // two windows later: forgotten
  });

  it('is off at limit 0', () => {
    const l = limiter(0);
    expect(l.enabled).toBe(false);
    expect(Array.from({ length: 10_000 }, () => l.hit('k').allowed).every(Boolean)).toBe(true);
  });
});

describe('SseConnectionLimiter', () => {
  const caller = (keyId: string): Caller => ({ keyId, name: keyId, tenant: 'acme', roles: ['auditor'] });

  it('caps open connections per key with 429 rate-limited + Retry-After, and frees slots on release', () => {
    const limiter = new SseConnectionLimiter({ ...DEFAULT_CONFIG, maxSsePerKey: 2 });
    const a1 = limiter.acquire(caller('a'));
    limiter.acquire(caller('a'));
    const refused = limiter.acquire(caller('a'));
    expect(refused).toEqual({ kind: 'refused', held: 2, retryAfterS: 5 });
    // as the subscription routes answer it
    const refusal = subscriptionRefusalProblem(refused as SseConnectionsRefused);
    expect(refusal).toBeInstanceOf(ProblemException);
    expect(refusal.problem).toMatchObject({ status: 429, code: 'rate-limited' });
    expect(Number(refusal.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    expect(refusal.problem).toEqual({
      type: 'https://operation-ledger.dev/problems/rate-limited',
      title: expect.any(String),
      status: 429,
      detail: 'this API key holds 2 open subscriptions, the most allowed; close one first',
      code: 'rate-limited',
      retryAfterS: 5,
    });
    expect(refusal.headers).toEqual({ 'Retry-After': '5' });
    expect(limiter.acquire(caller('b')).kind).toBe('acquired');
    if (a1.kind !== 'acquired') throw new Error('the first connection is admitted');
    a1.lease.release();
    a1.lease.release(); // idempotent
    expect(limiter.count(caller('a'))).toBe(1);
    expect(limiter.acquire(caller('a')).kind).toBe('acquired');
  });
});
