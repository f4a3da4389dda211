import { freeBytes, type FreeSpaceProbe, mib, RECOVERY_BYTES } from './free-space.js';

/** Options of {@link StorageGuard}. */
export interface StorageGuardOptions {
  /** The PGlite data directory (its volume is measured). */
  readonly dataDir: string;
  /** Writes are refused while less than this is free, bytes (LEDGER_DISK_RESERVE_MIB). */
  readonly reserveBytes: number;
  /** How often free space is measured, ms. @defaultValue 500 */
  readonly pollMs?: number;
  /** Measures free space (tests pass a fake). @defaultValue fs.statfs of the volume */
  readonly probe?: FreeSpaceProbe;
}

/**
 * Watches the free space of the embedded store's volume, so writes can be refused BEFORE the disk
 * is full: PGlite does not survive a failed WAL write. A failed measurement keeps the last value.
 */
export class StorageGuard {
  #free = Number.POSITIVE_INFINITY;
  #timer: NodeJS.Timeout | undefined;
  readonly #probe: FreeSpaceProbe;

  constructor(private readonly o: StorageGuardOptions) {
    this.#probe = o.probe ?? freeBytes;
  }

  /** Measures now and then every `pollMs` (the timer does not keep the process alive). */
  async start(): Promise<void> {
    await this.sample();
    this.#timer ??= setInterval(() => void this.sample(), this.o.pollMs ?? 500);
    this.#timer.unref();
  }

  /** Measures the free space now. @returns bytes free (the last known value if measuring failed). */
  async sample(): Promise<number> {
    try {
      this.#free = await this.#probe(this.o.dataDir);
    } catch {
      /* keep the last value: the data directory's volume did not answer */
    }
    return this.#free;
  }

  /** Writes are refused while less than this is free, bytes. */
  get reserveBytes(): number {
    return this.o.reserveBytes;
  }

  /** The last measured free space, bytes. */
  get freeBytes(): number {
    return this.#free;
  }

  /** Whether writes must be refused now: less than the reserve is free. */
  get low(): boolean {
    return this.#free < this.o.reserveBytes;
  }

  /** Whether there is room to reopen the data directory (crash recovery) and then write. */
  get roomToReopen(): boolean {
    return this.#free >= this.bytesToReopen;
  }

  /** Free space needed to reopen: {@link RECOVERY_BYTES} plus the reserve. */
  get bytesToReopen(): number {
    return RECOVERY_BYTES + this.o.reserveBytes;
  }

  /** The readiness line while {@link low}, e.g. `storage: disk full, 3 MiB free, need 24`. */
  lowReason(): string {
    return `storage: disk full, ${mib(this.#free)} MiB free, need ${mib(this.o.reserveBytes)}`;
  }

  /** Stops measuring. Idempotent. */
  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
