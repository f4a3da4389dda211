/** DI token of the process's {@link LedgerConfig}. */
export const LEDGER_CONFIG = Symbol('LEDGER_CONFIG');
