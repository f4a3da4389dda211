import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { examples, type Kit } from '../command-kit.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { compact, fields, table } from '../output/render.js';
import { collect, nonNegativeInt } from '../parse-options.js';

/** `field=value` → [field, JSON value or string] (`null`, numbers, booleans and arrays as JSON). */
function parseSetting(s: string): [string, unknown] {
  const eq = s.indexOf('=');
  if (eq < 1) throw new UsageError(`--set expects field=value, got "${s}"`);
  const raw = s.slice(eq + 1);
  try {
    return [s.slice(0, eq), JSON.parse(raw)];
  } catch {
    return [s.slice(0, eq), raw];
  }
}

function printPolicy(ctx: CommandContext, p: Record<string, unknown>): void {
  if (ctx.json) return ctx.printJson(p);
  const policy = (p.policy as Record<string, unknown>) ?? {};
  ctx.print(
    fields([
      ['tenant', p.tenant as string],
      ['action', p.action as string],
      ['version', p.version as number],
      ['source', p.source as string],
      ['set by', p.setBy as string],
      ['reason', p.reason as string],
      ['set at', p.setAt as string],
      ...Object.entries(policy).map(([k, v]) => [`  ${k}`, compact(v)] as [string, string]),
    ]),
  );
}

/** `ledger policies get|set|history <action>` (`*` = the tenant's default policy). */
export function registerPolicies(program: Command, kit: Kit): void {
  const policies = program
    .command('policies')
    .description("an action's policy: leases, approval, replay, retention, recovery");

  examples(
    policies
      .command('get <action>')
      .description('the policy in force for an action (`*`: the tenant default)'),
    ['ledger policies get invoice.create', "ledger policies get '*' --json"],
  ).action(
    kit.act(async (ctx, [action]) => {
      printPolicy(ctx, await ctx.client.policies.get(await ctx.tenant(), action!));
    }),
  );

  examples(
    policies
      .command('set <action>')
      .description(
        'record a new policy version: fields from --file and/or --set over the current policy (missing fields take the defaults)',
      )
      .requiredOption('--reason <text>', 'why (required; recorded with the version)')
      .option('--file <policy.json>', 'the whole policy as JSON')
      .option('--set <field=value>', 'one field over the current policy (repeatable)', collect)
      .option(
        '--expected-version <n>',
        'refuse if the current version is not this (default: the version read)',
        nonNegativeInt,
      ),
    [
      'ledger policies set invoice.create --set requireApproval=true --reason "CHG-7: approvals during the migration"',
      'ledger policies set payment.capture --file payment-policy.json --reason "do not replay payments"',
    ],
  ).action(
    kit.act(async (ctx, [action], o) => {
      if (!o.file && !o.set?.length) throw new UsageError('policies set needs --file or --set');
      const tenant = await ctx.tenant();
      const current = await ctx.client.policies.get(tenant, action!);
      const inherited = (current.policy as Record<string, unknown>) ?? {};
      const fromFile = o.file
        ? (JSON.parse(await readFile(ctx.path(o.file), 'utf8')) as Record<string, unknown>)
        : inherited;
      const policy = { ...fromFile, ...Object.fromEntries((o.set ?? []).map(parseSetting)) };
      const expectedVersion =
        o.expectedVersion ?? (current.source === 'action' ? (current.version as number) : 0);
      printPolicy(
        ctx,
        await ctx.client.policies.set(tenant, action!, { policy, reason: o.reason, expectedVersion }),
      );
    }),
  );

  examples(
    policies
      .command('history <action>')
      .description('every version of the policy, oldest first, with actor and reason'),
    ['ledger policies history invoice.create'],
  ).action(
    kit.act(async (ctx, [action]) => {
      const h = await ctx.client.policies.history(await ctx.tenant(), action!);
      const versions = (h.versions as Record<string, unknown>[] | undefined) ?? [];
      if (ctx.json) {
        for (const v of versions) ctx.printJson(v);
        return;
      }
      ctx.print(
        table(
          ['VERSION', 'SET AT', 'SET BY', 'REASON', 'POLICY'],
          versions.map((v) => [
            v.version as number,
            v.setAt as string,
            v.setBy as string,
            v.reason as string,
            compact(v.policy, 70),
          ]),
        ),
      );
    }),
  );
}
