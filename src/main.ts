import { loadConfig } from './config/ledger-config.js';
import { openAhead } from './event-store/postgres/early-open.js';
import { reservePort } from './process/reserve-port.js';
import type { EarlyStart } from './run-ledger.js';

/**
 * The server's entry point (README "Configuration"; `npm start` runs its bundle). Before the
 * application's modules load (≈ 1 s of the main thread) it binds the port — when that fails, the
 * error is reported and nothing is created — and, for the embedded store, locks the data
 * directory and starts opening it (`openAhead`: a new one's copy of the initdb template on the
 * thread pool, then PGlite on its worker thread), so that the opening and the loading overlap.
 * Everything else, and the reporting of any failure, is `runLedger`'s.
 */
async function early(): Promise<EarlyStart> {
  let config;
  try {
    config = loadConfig();
  } catch {
    return {}; // runLedger loads it again and reports the error
  }
  try {
    const reserved = await reservePort(config.host, config.port);
    if (config.store === 'pglite' && !config.dataDir.startsWith('memory://'))
      openAhead({ dataDir: config.dataDir, diskReserveBytes: config.diskReserveBytes });
    return { config, reserved };
  } catch (portError) {
    return { config, portError };
  }
}

const started = await early();
const { runLedger } = await import('./run-ledger.js');
runLedger(started);
