import { holdStopSignals, type HeldStopSignals } from './process/held-stop-signals.js';
import { loadConfig } from './config/ledger-config.js';
import { openAhead } from './event-store/postgres/early-open.js';
import { reservePort } from './process/reserve-port.js';
import type { EarlyStart } from './run-ledger.js';

// First of all: a stop signal during start-up is held (and acted on once the ledger has started),
// not a death by the signal with the data directory's lock and a half-opened database left behind.
const signals = holdStopSignals();

/**
 * The server's entry point: holds the stop signals, binds the port and starts opening the
 * embedded store before the modules load, so opening and loading overlap (docs/decisions.md
 * "Start-up"); the rest is `runLedger`'s.
 */
async function early(signals: HeldStopSignals): Promise<EarlyStart> {
  let config;
  try {
    config = loadConfig();
  } catch {
    return { signals }; // runLedger loads it again and reports the error
  }
  try {
    const reserved = await reservePort(config.host, config.port);
    if (config.store === 'pglite' && !config.dataDir.startsWith('memory://'))
      openAhead({ dataDir: config.dataDir, diskReserveBytes: config.diskReserveBytes });
    return { signals, config, reserved };
  } catch (portError) {
    return { signals, config, portError };
  }
}

const started = await early(signals);
const { runLedger } = await import('./run-ledger.js');
runLedger(started);
