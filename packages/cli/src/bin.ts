#!/usr/bin/env node
import { processIo } from './io.js';
import { runCli } from './program.js';

// Ctrl-C ends watches and backfills between requests (a second Ctrl-C exits at once).
const abort = new AbortController();
process.once('SIGINT', () => {
  abort.abort(new Error('interrupted'));
  process.once('SIGINT', () => process.exit(130));
});
process.exitCode = await runCli(process.argv.slice(2), processIo(abort.signal));
