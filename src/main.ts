import { holdStopSignals, type HeldStopSignals } from './process/held-stop-signals.js';
import { loadConfig } from './config/ledger-config.js';
import { openAhead } from './event-store/postgres/early-open.js';
import { reservePort } from './process/reserve-port.js';
import type { EarlyStart } from './run-ledger.js';

// First of all: a stop signal during start-up is held (and acted on once the ledger has started),
// not a death by the signal with the data directory's lock and a half-opened database left behind.
const signals = holdStopSignals();

/**
 * The server's entry point (docs/configuration.md; `npm start` runs its bundle). Before the
 * application's modules load (docs/decisions.md "Start-up") it binds the port — when that fails, the
 * error is reported and nothing is created — and, for the embedded store, locks the data
 * directory and starts opening it (`openAhead`: a new one's copy of the initdb template on the
 * thread pool, then PGlite on its worker thread), so that the opening and the loading overlap.
 * Everything else, and the reporting of any failure, is `runLedger`'s. Before all of it, it
 * holds the stop signals ({@link holdStopSignals}) until `runLedger` has started the ledger.
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
