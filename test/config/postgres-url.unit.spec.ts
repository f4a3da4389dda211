// DATABASE_URL may name several hosts with target_session_attrs (docs/production-ha.md); pg
// itself parses only one host, so the ledger parses the list and hands pg single-host URLs.
import { loadConfig } from '../../src/config/ledger-config.js';
import { parsePostgresUrl, PostgresUrlError } from '../../src/config/postgres-url.js';

describe('parsePostgresUrl', () => {
  it('reads several hosts in order, default port 5432, and target_session_attrs', () => {
    const url = parsePostgresUrl(
      'postgresql://ledger:s%40cret@db1:5433,db2,[::1]:6000/ledger?target_session_attrs=read-write&sslmode=require',
    );
    expect(url.hosts).toEqual([
      { host: 'db1', port: 5433 },
      { host: 'db2', port: 5432 },
      { host: '::1', port: 6000 },
    ]);
    expect(url.targetSessionAttrs).toBe('read-write');
    expect(url.singleHost()).toBe('postgresql://ledger:s%40cret@db1:5433/ledger?sslmode=require');
    expect(url.singleHost(2)).toBe('postgresql://ledger:s%40cret@[::1]:6000/ledger?sslmode=require');
  });

  it('keeps a single-host URL as it is apart from the explicit port', () => {
    const url = parsePostgresUrl('postgres://postgres@127.0.0.1:5432/ledger_test');
    expect(url.hosts).toEqual([{ host: '127.0.0.1', port: 5432 }]);
    expect(url.targetSessionAttrs).toBe('any');
    expect(url.singleHost()).toBe('postgres://postgres@127.0.0.1:5432/ledger_test');
    expect(parsePostgresUrl('postgres://db/x').singleHost()).toBe('postgres://db:5432/x');
  });

  it('accepts a URL without hosts (the driver default)', () => {
    const url = parsePostgresUrl('postgresql:///ledger?target_session_attrs=primary');
    expect(url.hosts).toEqual([]);
    expect(url.targetSessionAttrs).toBe('primary');
    expect(url.singleHost()).toBe('postgresql:///ledger');
  });

  it.each([
    ['mysql://db/x', /postgres:\/\//],
    ['postgres://db1,,db2/x', /host "" must be/],
    ['postgres://db1:0/x', /between 1 and 65535/],
    ['postgres://db1:70000/x', /between 1 and 65535/],
    ['postgres://db1:5432x/x', /must be host\[:port\]/],
    ['postgres://db1/x?target_session_attrs=read-only', /the ledger writes/],
    ['postgres://db1/x?target_session_attrs=standby', /the ledger writes/],
  ])('refuses %s', (input, message) => {
    expect(() => parsePostgresUrl(input)).toThrow(PostgresUrlError);
    expect(() => parsePostgresUrl(input)).toThrow(message);
  });

  it('never puts the password into an error', () => {
    expect(() => parsePostgresUrl('postgres://u:topsecret@db1:99999/x')).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('topsecret') }),
    );
  });
});

describe('loadConfig DATABASE_URL', () => {
  const env = (url: string) => ({ LEDGER_STORE: 'postgres', DATABASE_URL: url });

  it('takes a multi-host URL with read-write targeting', () => {
    const url = 'postgresql://ledger@db1:5432,db2:5432/ledger?target_session_attrs=read-write';
    expect(loadConfig(env(url)).databaseUrl).toBe(url);
  });

  it('names the variable when the host list is malformed', () => {
    expect(() => loadConfig(env('postgresql://db1:5432,:x/ledger'))).toThrow(/^DATABASE_URL host/);
    expect(() => loadConfig(env('postgresql://db1/ledger?target_session_attrs=standby'))).toThrow(
      /^DATABASE_URL target_session_attrs/,
    );
  });
});
