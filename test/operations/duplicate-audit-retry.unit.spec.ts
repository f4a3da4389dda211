// The coalesced duplicate audit keeps a window's count it could not write: a store that is down
// when a window ends gets the record again later, until it is stored (docs/domain.md "Audit of
// duplicate claims": only a crash may lose a pending count).
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { LedgerConfig } from '../../src/config/ledger-config.js';
import { EventStoreUnavailableError, type EventToAppend } from '../../src/event-store/event-store.port.js';
import { duplicateCount, type AuditEvent } from '../../src/ledger/index.js';
import { duplicateClaim } from '../ledger/support/duplicate-claim.js';
import type { AuditWriter } from '../../src/operations/audit-writer.js';
import { DuplicateAudit } from '../../src/operations/duplicate-audit.js';

const dup = (at: number) => duplicateClaim(at);

/** A writer whose first `failures` writes after `failFrom` are refused as a store outage. */
function flakyWriter(failFrom: number, failures: number) {
  const stored: EventToAppend[] = [];
  let calls = 0;
  const writer = {
    async write(_stream: string, events: readonly EventToAppend[]) {
      calls++;
      if (calls > failFrom && calls <= failFrom + failures)
        throw new EventStoreUnavailableError('store down');
      stored.push(...events);
    },
  } as unknown as AuditWriter;
  return { writer, stored };
}

const toStore = (events: readonly AuditEvent[]): EventToAppend[] =>
  events.map((e, i) => ({ id: `e-${Date.now()}-${i}-${Math.random()}`, type: e.type, data: { ...e.data } }));

const countOf = (stored: readonly EventToAppend[]) =>
  stored.reduce((n, e) => n + duplicateCount(e.data as { count?: unknown }), 0);

it("writes a window's count again when the store refused it as the window ended, and logs it", async () => {
  const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  const { writer, stored } = flakyWriter(1, 2); // the first duplicate is stored; the window's record fails twice
  const audit = new DuplicateAudit(writer, { now: () => Date.now() }, {
    duplicateAuditWindowMs: 20,
  } as LedgerConfig);
  try {
    for (let i = 0; i < 5; i++) await audit.record('audit-op', [dup(Date.now())], toStore);
    expect(countOf(stored)).toBe(1);
    for (let i = 0; i < 100 && countOf(stored) < 5; i++) await new Promise((r) => setTimeout(r, 20));
    expect(countOf(stored)).toBe(5);
    expect(errors).toHaveBeenCalled();
    expect(String(errors.mock.calls[0]![0])).toMatch(/4 duplicate claims of audit-op not recorded yet/);
  } finally {
    await audit.beforeApplicationShutdown();
    errors.mockRestore();
  }
});

it('writes a count still unwritten once more at a clean shutdown', async () => {
  const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  const { writer, stored } = flakyWriter(1, 1);
  const audit = new DuplicateAudit(writer, { now: () => Date.now() }, {
    duplicateAuditWindowMs: 20,
  } as LedgerConfig);
  try {
    for (let i = 0; i < 3; i++) await audit.record('audit-op', [dup(Date.now())], toStore);
    for (let i = 0; i < 50 && errors.mock.calls.length === 0; i++)
      await new Promise((r) => setTimeout(r, 10));
    await audit.beforeApplicationShutdown();
    expect(countOf(stored)).toBe(3);
  } finally {
    errors.mockRestore();
  }
});
