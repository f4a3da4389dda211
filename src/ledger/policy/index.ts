export * from './action-policy.js';
export * from './command-under-policy.js';
export * from './fingerprint-input.js';
export * from './lease-bound.js';
