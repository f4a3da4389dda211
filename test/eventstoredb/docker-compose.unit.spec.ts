// docker-compose.yml wires EventStoreDB, PostgreSQL and the ledger by environment: the ledger
// service's environment must pass the ledger's own start-up validation (loadConfig).
import { existsSync, readFileSync } from 'node:fs';
import { EventStoreDBClient } from '@eventstore/db-client';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config/ledger-config.js';

interface ComposeService {
  readonly image?: string;
  readonly build?: unknown;
  readonly environment?: Record<string, string | number | boolean | null> | string[];
  readonly depends_on?: Record<string, { condition?: string }> | string[];
  readonly healthcheck?: unknown;
}

const compose = parse(readFileSync(new URL('../../docker-compose.yml', import.meta.url), 'utf8')) as {
  services: Record<string, ComposeService>;
};
const { ledger, eventstoredb, postgres } = compose.services;

/** A service's environment as process.env would hold it (both compose forms: map and list). */
function environmentOf(service: ComposeService): NodeJS.ProcessEnv {
  const environment = service.environment ?? {};
  if (Array.isArray(environment)) {
    return Object.fromEntries(
      environment.map((entry) => [entry.split('=')[0]!, entry.split('=').slice(1).join('=')]),
    );
  }
  return Object.fromEntries(Object.entries(environment).map(([k, v]) => [k, v === null ? '' : String(v)]));
}

describe('docker-compose.yml', () => {
  it('has an EventStoreDB node, PostgreSQL and the ledger built from the Dockerfile', () => {
    expect(eventstoredb?.image).toMatch(/^eventstore\/eventstore:/);
    expect(postgres?.image).toMatch(/^postgres:/);
    expect(ledger?.build).toBe('.');
    expect(existsSync(new URL('../../Dockerfile', import.meta.url))).toBe(true);
  });

  it("gives the ledger an environment that passes the ledger's configuration validation", () => {
    const config = loadConfig(environmentOf(ledger!));

    expect(config.store).toBe('eventstoredb');
    expect(config.host).toBe('0.0.0.0');
    expect(config.auth).toBe('enabled'); // listening beyond loopback needs API keys
    expect(new URL(config.databaseUrl!).hostname).toBe('postgres');
    const client = EventStoreDBClient.connectionString(config.eventStoreConnectionString!); // the client parses it
    void client.dispose();
    expect(config.eventStoreConnectionString).toMatch(/^esdb:\/\/eventstoredb:2113\?tls=false$/);
  });

  it('runs EventStoreDB as an insecure single node with projections off, and starts the ledger after both', () => {
    expect(environmentOf(eventstoredb!)).toMatchObject({
      EVENTSTORE_CLUSTER_SIZE: '1',
      EVENTSTORE_INSECURE: 'true',
      EVENTSTORE_RUN_PROJECTIONS: 'None',
    });
    expect(ledger!.depends_on).toEqual({
      eventstoredb: { condition: 'service_healthy' },
      postgres: { condition: 'service_healthy' },
    });
    expect(eventstoredb!.healthcheck).toBeDefined();
    expect(postgres!.healthcheck).toBeDefined();
  });
});
