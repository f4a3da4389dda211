import { get, ledgerOneStep, type OpContext } from './target-ops.js';

/**
 * Whether the ledger at `ctx.pool` runs the one-step job (the round-trip shortcuts: a claim naming `startStep`, a
 * confirm naming `completeStep`): runs one and reads the operation back. Resolves to null when it
 * does, else to the reason shown in the table, e.g. `n/a: server lacks startStep`. A server that
 * accepts the fields but ignores them is caught by the read-back.
 */
export async function probeOneStep(ctx: OpContext): Promise<string | null> {
  let operationId: string;
  try {
    operationId = await ledgerOneStep(ctx, 0);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (/^claim: expected 201, got 400\b/.test(message)) return 'n/a: server lacks startStep';
    if (/^confirm: expected 200, got 400\b/.test(message)) return 'n/a: server lacks completeStep';
    return `n/a: one-step job failed (${message})`;
  }
  const status = await get(ctx.pool, `/v1/operations/${operationId}`, {
    authorization: `Bearer ${ctx.tokens[0]}`,
  });
  const steps = (status.body?.['steps'] ?? []) as { step?: string; status?: string }[];
  if (status.body?.['state'] !== 'confirmed') return 'n/a: confirm with completeStep did not confirm';
  if (!steps.some((s) => s.step === 'create' && s.status === 'completed')) {
    return 'n/a: server ignores startStep/completeStep (no completed step recorded)';
  }
  return null;
}
