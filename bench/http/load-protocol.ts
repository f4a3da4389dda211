import type { LoadResult } from '../harness.js';
import type { ServerId } from './targets.js';

/** Where one server listens and the ledger worker tokens to use there (empty for baselines). */
export interface ServerAddress {
  readonly url: string;
  readonly tokens: readonly string[];
}

/**
 * Commands of the benchmark to its load-generator process (bench/http/load-generator.ts), one
 * at a time; each is answered by a {@link LoadReply} with the same `id`.
 * - `setup`: the servers and the load shape (and the keys' run tag); first.
 * - `seed`: completes the `dupKeys` keys that a server's duplicate/replay target repeats.
 * - `probe-one-step`: whether a ledger runs the one-step job (value: null or the n/a reason).
 * - `open`: fresh connections to the target's server, ready to run its operation.
 * - `load`: runs the open target, closed loop, for `durationMs` or `maxOps` (value: LoadResult).
 * - `close`: closes the open connections.
 */
export type LoadCommand = { readonly id: number } & (
  | {
      readonly cmd: 'setup';
      readonly servers: Readonly<Partial<Record<ServerId, ServerAddress>>>;
      readonly connections: number;
      readonly dupKeys: number;
      /** The keys' run tag (Workload), when another process seeds or checks the same keys. */
      readonly runTag?: string;
    }
  | { readonly cmd: 'seed'; readonly server: ServerId }
  | { readonly cmd: 'probe-one-step'; readonly server: ServerId }
  | { readonly cmd: 'open'; readonly target: string }
  | { readonly cmd: 'load'; readonly durationMs: number; readonly maxOps: number }
  | { readonly cmd: 'close' }
);

/** Answer of the load generator to one {@link LoadCommand}. */
export type LoadReply =
  | { readonly id: number; readonly ok: true; readonly value: LoadResult | string | null }
  | { readonly id: number; readonly ok: false; readonly error: string };
