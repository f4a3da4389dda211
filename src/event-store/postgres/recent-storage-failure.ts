import { type StorageFailure, storageFailureOf } from './storage-failure.js';

/** How long a storage failure PostgreSQL reported keeps readiness down, ms. */
export const STORAGE_FAILURE_WINDOW_MS = 10_000;

/**
 * The last storage failure (SQLSTATE class 53) PostgreSQL answered, for readiness: PostgreSQL
 * serves reads on a full disk, so a read probe alone would say ready.
 */
export class RecentStorageFailure {
  #last: { readonly failure: StorageFailure; readonly at: number } | undefined;

  constructor(
    private readonly windowMs = STORAGE_FAILURE_WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Remembers `error` if it is a storage failure; anything else is ignored. */
  note(error: unknown): void {
    const failure = storageFailureOf(error);
    if (failure) this.#last = { failure, at: this.now() };
  }

  /** e.g. `storage: disk full reported by PostgreSQL 2 s ago (could not extend file …)`, or undefined. */
  problem(): string | undefined {
    if (!this.#last) return undefined;
    const age = this.now() - this.#last.at;
    if (age > this.windowMs) return undefined;
    const { kind, detail } = this.#last.failure;
    return `storage: ${kind.replaceAll('-', ' ')} reported by PostgreSQL ${Math.round(age / 1000)} s ago (${detail})`;
  }
}
