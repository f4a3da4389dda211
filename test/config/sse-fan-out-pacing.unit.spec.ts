// LEDGER_SSE_FAN_OUT_WRITES_PER_S: the socket writes a second one feed's fan-out aims to stay under
// (delivery delay against CPU with many subscribers; docs/configuration.md).
import { ConfigError } from '../../src/config/env-vars.js';
import { loadConfig } from '../../src/config/ledger-config.js';
import { FAN_OUT_WRITES_PER_S } from '../../src/projections/subscriptions/shared-feed.js';

describe('LEDGER_SSE_FAN_OUT_WRITES_PER_S', () => {
  it('sets the pacing of live feeds, and defaults to the shared feed’s own', () => {
    expect(loadConfig({ LEDGER_SSE_FAN_OUT_WRITES_PER_S: '1000' }).sseFanOutWritesPerS).toBe(1000);
    expect(loadConfig({}).sseFanOutWritesPerS).toBe(FAN_OUT_WRITES_PER_S);
  });

  it('refuses a value that is not a whole number from 100 to 1 000 000', () => {
    expect(() => loadConfig({ LEDGER_SSE_FAN_OUT_WRITES_PER_S: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ LEDGER_SSE_FAN_OUT_WRITES_PER_S: 'fast' })).toThrow(ConfigError);
    expect(() => loadConfig({ LEDGER_SSE_FAN_OUT_WRITES_PER_S: '1000001' })).toThrow(ConfigError);
  });
});
