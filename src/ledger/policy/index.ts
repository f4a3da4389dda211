export * from './action-policy.js';
export * from './fingerprint-input.js';
