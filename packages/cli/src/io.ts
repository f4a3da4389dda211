import type { FetchLike } from '@operation-ledger/client';

/** A stream the CLI writes to: `process.stdout`/`stderr`, or a capture in tests. */
export interface OutputStream {
  write(chunk: string): unknown;
  /** True for a terminal: progress bars and prompts only go to terminals. */
  readonly isTTY?: boolean;
}

/**
 * Everything the CLI touches outside itself, so tests can run the program in-process with
 * captured output: the streams, the environment variables, the working directory, and
 * optionally the fetch used for every HTTP call (default: Node's global fetch).
 */
export interface CliIo {
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  /** Read by confirmation prompts (one line: `y`/`yes` confirms). */
  readonly stdin: NodeJS.ReadableStream;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Relative paths (backfill input, results, CSV exports) are taken from here. */
  readonly cwd: string;
  readonly fetch?: FetchLike;
  /** Aborts long-running commands (`ops watch`, `backfill`); the entry point wires SIGINT to it. */
  readonly signal?: AbortSignal;
}

/** The real process's streams and environment. */
export function processIo(signal?: AbortSignal): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    signal,
  };
}
