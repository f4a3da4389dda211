#!/usr/bin/env node
// The `ledger` command. A committed launcher, so npm can link the bin at install time, before
// `prepare` has built dist/ (npm ci links bins first and skips a target that does not exist yet).
await import('../dist/bin.js');
