import type { Command } from 'commander';
import type { WorkerAnswer } from '@operation-ledger/client';
import { examples, type Kit } from '../command-kit.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { parseOperationRef } from '../operation-ref.js';
import { compact, fields } from '../output/render.js';
import { collect, pick } from '../parse-options.js';

const REF = '<operation>';
const REASON = [
  '--reason <text>',
  'why (required; recorded in the operation stream with your key as actor)',
] as const;

/** Prints the state an action led to: the answer as fields, or as one JSON line. */
function printAnswer(ctx: CommandContext, action: string, answer: WorkerAnswer): void {
  if (ctx.json) return ctx.printJson(answer);
  const rest = Object.entries(answer).filter(([k]) => !['operationId', 'state'].includes(k));
  ctx.print(
    fields([
      ['operation', answer.operationId],
      ['action', action],
      ['state', answer.state],
      ...rest.map(([k, v]) => [k, compact(v)] as [string, string]),
    ]),
  );
}

/** `k=v` pairs (values parsed as JSON when they are JSON, else kept as strings). */
function pairs(list: readonly string[] | undefined, option: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of list ?? []) {
    const eq = p.indexOf('=');
    if (eq < 1) throw new UsageError(`${option} expects field=value, got "${p}"`);
    const raw = p.slice(eq + 1);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      /* a plain string */
    }
    out[p.slice(0, eq)] = value;
  }
  return out;
}

/** `ledger resolve|approve|reject|replay|evidence|ack-duplicate`: operator actions on one operation. */
export function registerActions(program: Command, kit: Kit): void {
  examples(
    program
      .command(`resolve ${REF} <resolution>`)
      .description(
        'settle an unknown outcome: confirmed (with --ref), not_found (may run again) or abandoned',
      )
      .requiredOption(...REASON)
      .option('--ref <destinationRef>', 'with confirmed: the record found at the destination'),
    [
      'ledger resolve acme/shop/invoice.create/order:812 confirmed --ref INV-2041 --reason "found in billing"',
      'ledger resolve 3f0c5e2a-6f1e-5b7c-9d2a-1b2c3d4e5f60 not_found --reason "no invoice in billing, safe to retry"',
    ],
  ).action(
    kit.act(async (ctx, [ref, resolution], o) => {
      const r = pick(resolution!, ['confirmed', 'not_found', 'abandoned'] as const, 'resolution');
      if (r === 'confirmed' && !o.ref)
        throw new UsageError('resolve … confirmed needs --ref <destinationRef>');
      const { operationId } = parseOperationRef(ref!);
      printAnswer(
        ctx,
        'resolve',
        await ctx.client.operator.resolve(operationId, {
          resolution: r,
          destinationRef: o.ref,
          reason: o.reason,
        }),
      );
    }),
  );

  const simple = [
    ['approve', 'let an approval-gated operation run (its next claim acquires)', 'approve'],
    ['reject', 'refuse an approval-gated operation (later claims replay the rejection)', 'reject'],
    ['replay', 'let a final failure run again (where the policy allows)', 'replay'],
  ] as const;
  for (const [name, description, method] of simple) {
    examples(
      program
        .command(`${name} ${REF}`)
        .description(description)
        .requiredOption(...REASON),
      [
        `ledger ${name} acme/shop/invoice.create/order:812 --reason "${name === 'replay' ? 'billing fixed the VAT table' : 'checked with finance'}"`,
      ],
    ).action(
      kit.act(async (ctx, [ref], o) => {
        const { operationId } = parseOperationRef(ref!);
        printAnswer(ctx, name, await ctx.client.operator[method](operationId, o.reason));
      }),
    );
  }

  examples(
    program
      .command(`evidence ${REF} <verdict>`)
      .description(
        'record what a lookup at the destination found: found (with --ref), not_found or inconclusive',
      )
      .requiredOption('--reason <text>', 'what was checked and how (required; recorded as the note)')
      .option('--ref <destinationRef>', 'with found: the record at the destination')
      .option('--checked <field=value>', 'a field the lookup matched on (repeatable)', collect),
    [
      'ledger evidence acme/shop/invoice.create/order:812 found --ref INV-2041 --checked order_id=812 --reason "billing search by order id"',
    ],
  ).action(
    kit.act(async (ctx, [ref, verdict], o) => {
      const v = pick(verdict!, ['found', 'not_found', 'inconclusive'] as const, 'verdict');
      if (v === 'found' && !o.ref) throw new UsageError('evidence … found needs --ref <destinationRef>');
      const { operationId } = parseOperationRef(ref!);
      const answer = await ctx.client.operator.submitEvidence(operationId, {
        verdict: v,
        destinationRef: o.ref,
        checkedFields: pairs(o.checked, '--checked'),
        note: o.reason,
      });
      printAnswer(ctx, 'evidence', answer);
    }),
  );

  examples(
    program
      .command(`ack-duplicate ${REF}`)
      .description('acknowledge duplicate effects after cleaning them up (all open ones, or those named)')
      .requiredOption(...REASON)
      .option('--ref <destinationRef>', 'only this duplicate reference (repeatable)', collect),
    ['ledger ack-duplicate acme/shop/invoice.create/order:812 --ref INV-2042 --reason "INV-2042 voided"'],
  ).action(
    kit.act(async (ctx, [ref], o) => {
      const { operationId } = parseOperationRef(ref!);
      printAnswer(
        ctx,
        'ack-duplicate',
        await ctx.client.operator.acknowledgeDuplicateEffect(operationId, o.reason, o.ref),
      );
    }),
  );
}
