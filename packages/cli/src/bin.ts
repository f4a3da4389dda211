#!/usr/bin/env node
import { processIo } from './io.js';
import { runCli } from './program.js';

// Ctrl-C ends watches and backfills between requests (a second Ctrl-C exits at once).
const abort = new AbortController();
process.once('SIGINT', () => {
  abort.abort(new Error('interrupted'));
  process.once('SIGINT', () => process.exit(130));
});
// A reader that stops early (`ledger … | head -1`) closes the pipe: end quietly, as `cat` does,
// rather than on an unhandled EPIPE error (its stack trace and exit code 1).
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
process.exitCode = await runCli(process.argv.slice(2), processIo(abort.signal));
