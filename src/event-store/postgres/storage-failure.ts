/**
 * What a storage failure ran out of: SQLSTATE class 53 (PostgreSQL Appendix A) or ENOSPC/EDQUOT;
 * `crashed` (a PANIC, a WebAssembly abort, the thread ending) means PGlite cannot be used again.
 */
export type StorageFailureKind =
  'disk-full' | 'out-of-memory' | 'too-many-connections' | 'insufficient-resources' | 'crashed';

/** A classified storage failure: its kind and the driver's message. */
export interface StorageFailure {
  readonly kind: StorageFailureKind;
  readonly detail: string;
}

const SQLSTATE_KINDS: Readonly<Record<string, StorageFailureKind>> = {
  '53100': 'disk-full',
  '53200': 'out-of-memory',
  '53300': 'too-many-connections',
};

/** Emscripten's errno for ENOSPC (its errno numbering is WASI's). */
const EMSCRIPTEN_ENOSPC = 51;

const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT']);
const DISK_FULL_MESSAGE = /no space left on device|disk quota exceeded/i;
/** A PANIC severity as PostgreSQL prints it (upper case, as a word). */
const PANIC_MESSAGE = /\bPANIC\b/;

/** Classifies `error` as a storage failure, or undefined (read-only refusals 25006 included). */
export function storageFailureOf(error: unknown): StorageFailure | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message, name, errno, severity } = error as {
    code?: unknown;
    message?: unknown;
    name?: unknown;
    errno?: unknown;
    severity?: unknown;
  };
  const detail = typeof message === 'string' && message ? message : String(name ?? 'storage error');
  const of = (kind: StorageFailureKind): StorageFailure => ({ kind, detail });
  if (typeof code === 'string') {
    if (SQLSTATE_KINDS[code]) return of(SQLSTATE_KINDS[code]);
    if (code.length === 5 && code.startsWith('53')) return of('insufficient-resources');
    if (DISK_FULL_CODES.has(code)) return of('disk-full');
  }
  if (name === 'ErrnoError') return of(errno === EMSCRIPTEN_ENOSPC ? 'disk-full' : 'crashed');
  if (typeof message === 'string' && DISK_FULL_MESSAGE.test(message)) return of('disk-full');
  if (severity === 'PANIC' || (typeof message === 'string' && PANIC_MESSAGE.test(message))) {
    return of('crashed');
  }
  if (name === 'RuntimeError') return of('crashed'); // WebAssembly.RuntimeError: the instance aborted
  if (name === 'PgliteThreadExitedError') return of('crashed');
  return undefined;
}
