import type { OperationStatus } from '@operation-ledger/client';
import { printStatus } from '../../packages/cli/src/commands/ops.js';
import type { CommandContext } from '../../packages/cli/src/context.js';

// `ledger ops show <op> --at-revision n | --as-of t` (docs/operating.md): the ledger's answer
// carries `asOf: { revision, time }` with the one not asked for null (docs/api.md "Reading one
// operation"); the "as of" row names what was asked, never a bare "null".
describe('ledger ops show', () => {
  const shown = (asOf: { revision: string | null; time: string | null } | undefined, row = 'as of') => {
    const printed: string[] = [];
    const ctx = { print: (text: string) => printed.push(text) } as unknown as CommandContext;
    const status = {
      operationId: '1c0d2cf6-16b9-5982-8e36-0182430be9b4',
      key: { tenant: 'acme', source: 'shop', action: 'invoice.create', subject: 'order:1001', revision: 1 },
      state: 'in_progress',
      attempt: 1,
      steps: [],
      revision: 1,
      lease: { workerId: null, attempt: 1, expiresAt: '2026-12-05T01:16:36.912Z', expired: false },
      asOf,
    } as unknown as OperationStatus;
    printStatus(ctx, status);
    return (
      printed
        .join('\n')
        .split('\n')
        .find((line) => line.includes(row)) ?? ''
    );
  };

  it('names only the revision asked for', () => {
    const row = shown({ revision: '1', time: null });
    expect(row).toContain('revision 1');
    expect(row).not.toContain('null');
  });

  it('names only the time asked for', () => {
    const row = shown({ revision: null, time: '2026-12-05T01:16:06.000Z' });
    expect(row).toContain('2026-12-05T01:16:06.000Z');
    expect(row).not.toContain('null');
  });

  it('names both when both were asked for', () => {
    const row = shown({ revision: '3', time: '2026-12-05T01:16:06.000Z' });
    expect(row).toContain('revision 3');
    expect(row).toContain('2026-12-05T01:16:06.000Z');
  });

  it('shows a lease without a worker id as its attempt and end, with no stray dash', () => {
    const row = shown(undefined, 'lease');
    expect(row).toMatch(/lease\s+│ attempt 1, until 2026-12-05T01:16:36.912Z/);
  });
});
