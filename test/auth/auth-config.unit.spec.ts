// Security configuration: auth off only when asked for, and then on loopback only.
import { ConfigError, loadConfig } from '../../src/config/ledger-config.js';
import { isLoopbackHost } from '../../src/auth/loopback.js';

describe('security configuration', () => {
  it('has auth on, rate limiting and SSE caps on by default', () => {
    expect(loadConfig({})).toMatchObject({
      auth: 'enabled',
      adminToken: null,
      rateLimitPerKey: 2000,
      maxSsePerKey: 10,
    });
  });

  it('allows LEDGER_AUTH=disabled only with a loopback HOST', () => {
    expect(loadConfig({ LEDGER_AUTH: 'disabled' }).auth).toBe('disabled');
    expect(loadConfig({ LEDGER_AUTH: 'disabled', HOST: '::1' }).host).toBe('::1');
    expect(() => loadConfig({ LEDGER_AUTH: 'disabled', HOST: '0.0.0.0' })).toThrow(ConfigError);
    expect(() => loadConfig({ LEDGER_AUTH: 'off' })).toThrow(/LEDGER_AUTH/);
  });

  it('accepts only well-formed LEDGER_ADMIN_TOKEN values', () => {
    const good = `olk_${'a'.repeat(24)}_${'B'.repeat(43)}`;
    expect(loadConfig({ LEDGER_ADMIN_TOKEN: good }).adminToken).toBe(good);
    expect(() => loadConfig({ LEDGER_ADMIN_TOKEN: 'secret' })).toThrow(/LEDGER_ADMIN_TOKEN/);
    expect(() => loadConfig({ LEDGER_ADMIN_TOKEN: `olk_${'a'.repeat(24)}_short` })).toThrow(
      /LEDGER_ADMIN_TOKEN/,
    );
  });

  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['::1', true],
    ['localhost', true],
    ['0.0.0.0', false],
    ['::', false],
    ['10.0.0.5', false],
    [undefined, false],
  ])('isLoopbackHost(%j) = %s', (host, loopback) => expect(isLoopbackHost(host)).toBe(loopback));
});
