/** The ledger domain: pure TypeScript, no framework, no I/O (checked by dependency-cruiser). */
export * from './commands.js';
export * from './decide-claim.js';
export * from './decide-resolve.js';
export * from './decide-worker.js';
export * from './decision.js';
export * from './events.js';
export * from './evolve.js';
export * from './fingerprint.js';
export * from './operation-key.js';
export * from './operation-state.js';
export * from './outcome.js';
export * from './parse-operation-key.js';
export * from './refusal.js';
export * from './step-name.js';
export * from './validation-issue.js';
