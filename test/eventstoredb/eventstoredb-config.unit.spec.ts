// LEDGER_STORE=eventstoredb at start-up: the connection string is required and checked, and the
// read models' database is PostgreSQL when DATABASE_URL is set, else PGlite in LEDGER_DATA_DIR.
import { ConfigError, loadConfig } from '../../src/config/ledger-config.js';

const load = (env: Record<string, string>) => loadConfig(env);
const problem = (env: Record<string, string>) => {
  try {
    load(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
};

describe('LEDGER_STORE=eventstoredb', () => {
  it('takes the connection string, with read models in PGlite unless DATABASE_URL is set', () => {
    const config = load({
      LEDGER_STORE: 'eventstoredb',
      EVENTSTORE_CONNECTION_STRING: 'esdb://localhost:2113?tls=false',
    });
    expect(config).toMatchObject({
      store: 'eventstoredb',
      eventStoreConnectionString: 'esdb://localhost:2113?tls=false',
      databaseUrl: null,
    });
    const withPg = load({
      LEDGER_STORE: 'eventstoredb',
      EVENTSTORE_CONNECTION_STRING: 'esdb://localhost:2113?tls=false',
      DATABASE_URL: 'postgres://ledger@db:5432/ledger',
    });
    expect(withPg.databaseUrl).toBe('postgres://ledger@db:5432/ledger');
  });

  it.each([
    ['esdb://admin:changeit@node1:2113,node2:2113,node3:2113?tls=true&nodePreference=leader'],
    ['esdb+discover://cluster.example.com:2113?tlsCAFile=/certs/ca.crt'],
    ['esdb://localhost?tls=false&defaultDeadline=5000'],
  ])('accepts %s', (connectionString) => {
    expect(load({ LEDGER_STORE: 'eventstoredb', EVENTSTORE_CONNECTION_STRING: connectionString }).store).toBe(
      'eventstoredb',
    );
  });

  it('names the missing variable', () => {
    expect(problem({ LEDGER_STORE: 'eventstoredb' })).toMatch(
      /^EVENTSTORE_CONNECTION_STRING is required when LEDGER_STORE=eventstoredb/,
    );
  });

  it.each([
    ['http://localhost:2113', /must look like esdb:\/\/host:2113/],
    ['esdb://', /one or more host\[:port\]/],
    ['esdb://a:2113,,b:2113', /one or more host\[:port\]/],
    ['esdb://localhost:99999', /port above 65535/],
    ['esdb+discover://a:2113,b:2113', /names one DNS entry/],
    ['esdb://localhost:2113?tls', /query option without a value/],
    ['esdb://localhost:2113?tls=maybe', /tls=true or tls=false/],
    ['esdb://localhost:2113?throwOnAppendFailure=false', /must not set throwOnAppendFailure=false/],
  ])('refuses %s with a clear message', (connectionString, message) => {
    expect(problem({ LEDGER_STORE: 'eventstoredb', EVENTSTORE_CONNECTION_STRING: connectionString })).toMatch(
      message,
    );
  });

  it('never echoes a password', () => {
    const message = problem({
      LEDGER_STORE: 'eventstoredb',
      EVENTSTORE_CONNECTION_STRING: 'esdb://admin:s3cret@h:x',
    });
    expect(message).not.toContain('s3cret');
  });

  it('ignores EVENTSTORE_CONNECTION_STRING for the other stores, and lists eventstoredb as a store', () => {
    expect(load({ EVENTSTORE_CONNECTION_STRING: 'not even a url' }).eventStoreConnectionString).toBeNull();
    expect(problem({ LEDGER_STORE: 'mongo' })).toMatch(/pglite, postgres, eventstoredb/);
  });
});
