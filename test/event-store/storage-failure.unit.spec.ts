import {
  EventStoreUnavailableError,
  StorageUnavailableError,
} from '../../src/event-store/event-store.port.js';
import { storageFailureOf } from '../../src/event-store/postgres/storage-failure.js';
import { toUnavailableError } from '../../src/event-store/postgres/unavailable-error.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('storageFailureOf', () => {
  it.each([
    // PostgreSQL (and PGlite, which reports the same SQLSTATEs) — Appendix A, class 53.
    ['disk-full', withCode('could not extend file "base/5/16385": No space left on device', '53100')],
    ['disk-full', withCode('could not write to file "pg_wal/xlogtemp.42": No space left on device', '53100')],
    ['out-of-memory', withCode('out of memory', '53200')],
    ['too-many-connections', withCode('sorry, too many clients already', '53300')],
    ['insufficient-resources', withCode('too many locks', '53400')],
    // Node file system calls and Emscripten's FS (errno 51 is ENOSPC there) under PGlite.
    ['disk-full', withCode('ENOSPC: no space left on device, write', 'ENOSPC')],
    ['disk-full', withCode('EDQUOT: disk quota exceeded', 'EDQUOT')],
    ['disk-full', Object.assign(new Error('FS error'), { name: 'ErrnoError', errno: 51 })],
    ['disk-full', new Error('PGlite failed: No space left on device')],
    // A PostgreSQL PANIC, or the WebAssembly instance aborting, leaves PGlite unusable.
    ['crashed', new Error('PANIC:  could not write to file "pg_wal/xlogtemp.42"')],
    ['crashed', Object.assign(new Error('FS error'), { name: 'ErrnoError', errno: 29 })],
    ['crashed', new (globalThis as any).WebAssembly.RuntimeError('unreachable')],
  ])('is %s for %p', (kind, error) => {
    expect(storageFailureOf(error)?.kind).toBe(kind);
  });

  it.each([
    ['unique violation', withCode('duplicate key', '23505')],
    ['read-only transaction', withCode('cannot execute INSERT in a read-only transaction', '25006')],
    ['refused connection', withCode('connect ECONNREFUSED', 'ECONNREFUSED')],
    ['admin shutdown', withCode('terminating connection', '57P01')],
    ['plain error', new Error('boom')],
    ['a message merely naming panic', new Error('panic button pressed')],
    ['non-error', 'No space'],
    ['null', null],
  ])('is undefined for %s', (_label, error) => {
    expect(storageFailureOf(error)).toBeUndefined();
  });

  it('keeps the driver message as the detail', () => {
    const failure = storageFailureOf(withCode('could not extend file: No space left on device', '53100'));
    expect(failure).toEqual({ kind: 'disk-full', detail: 'could not extend file: No space left on device' });
  });
});

describe('StorageUnavailableError', () => {
  it('is an EventStoreUnavailableError whose reason can be shown to clients', () => {
    const error = new StorageUnavailableError('storage: disk full, 3 MiB free, need 24');
    expect(error).toBeInstanceOf(EventStoreUnavailableError);
    expect(error.reason).toBe('storage: disk full, 3 MiB free, need 24');
    expect(toUnavailableError(error)).toBe(error);
  });
});
