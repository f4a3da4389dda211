// LEDGER_PROJECTOR_INTERVAL_MS: least time between live projector batches (docs/configuration.md).
import { ConfigError } from '../../src/config/env-vars.js';
import { loadConfig } from '../../src/config/ledger-config.js';
import { projectorOptionsOf } from '../../src/projections/projector-options.js';

const quiet = { warn: () => undefined };

describe('LEDGER_PROJECTOR_INTERVAL_MS', () => {
  it('sets the least interval between live batches of the projector', () => {
    const config = loadConfig({ LEDGER_PROJECTOR_INTERVAL_MS: '200' });
    expect(projectorOptionsOf(config, quiet).minIntervalMs).toBe(200);
    expect(projectorOptionsOf(loadConfig({ LEDGER_PROJECTOR_INTERVAL_MS: '0' }), quiet).minIntervalMs).toBe(
      0,
    );
  });

  it("leaves the database's default when unset", () => {
    expect(projectorOptionsOf(loadConfig({}), quiet).minIntervalMs).toBeUndefined();
  });

  it('refuses a value that is not a whole number of milliseconds up to a minute', () => {
    expect(() => loadConfig({ LEDGER_PROJECTOR_INTERVAL_MS: 'soon' })).toThrow(ConfigError);
    expect(() => loadConfig({ LEDGER_PROJECTOR_INTERVAL_MS: '60001' })).toThrow(ConfigError);
  });
});
