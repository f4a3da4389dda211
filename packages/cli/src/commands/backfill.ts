import { access } from 'node:fs/promises';
import type { Command } from 'commander';
import { parseKeyTemplate } from '../backfill/key-template.js';
import { countLines, formatOf, type InputFormat } from '../backfill/records.js';
import { ResultsFile } from '../backfill/results.js';
import { runBackfill, type BackfillSummary } from '../backfill/run-backfill.js';
import { examples, type Kit } from '../command-kit.js';
import type { CommandContext } from '../context.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { startProgress } from '../output/progress.js';
import { table } from '../output/render.js';
import { oneOf, positiveInt } from '../parse-options.js';

/** `ledger backfill <file> --action A --source S --key 'subject=${order_id}'`. */
export function registerBackfill(program: Command, kit: Kit): void {
  examples(
    program
      .command('backfill <file>')
      .description(
        'record a past batch (NDJSON or CSV) as done: each line is claimed through /v1/claims/batch and confirmed, so re-runs of the automation replay it; safe to re-run after an interruption',
      )
      .requiredOption('--action <action>', 'the action of every line, e.g. invoice.create')
      .requiredOption('--source <source>', 'the source system of every line, e.g. shop')
      .requiredOption(
        '--key <template>',
        "the key from each line: 'subject=${order_id}' (also revision=, source=, action=)",
      )
      .option(
        '--payload-fields <fields>',
        'comma-separated fields that form the payload (default: the whole line)',
      )
      .option('--ref-field <field>', "a field holding the destination's reference (recorded by the confirm)")
      .option(
        '--format <format>',
        'ndjson or csv (default: from the file name)',
        oneOf(['ndjson', 'csv'] as const),
      )
      .option('--results <file>', 'the results file: .ndjson, or .csv (default <file>.results.ndjson)')
      .option('--chunk <n>', 'claims per batch request (at most 500)', positiveInt, 500)
      .option('--concurrency <n>', 'confirms in flight at once', positiveInt, 8)
      .option(
        '--lease-ms <ms>',
        'lease of each claim: a re-run within it takes over unconfirmed claims',
        positiveInt,
        300_000,
      )
      .option('--worker-id <id>', 'recorded as the worker of every claim', 'ledger-backfill'),
    [
      "ledger backfill packages/cli/sample.ndjson --action invoice.create --source shop --key 'subject=order:${order_id}' --ref-field invoice",
      "ledger backfill january.csv --action invoice.create --source erp --key 'subject=${order_id},revision=${rev}' --payload-fields order_id,amount,currency --results january.results.csv",
    ],
  ).action(
    kit.act(async (ctx, [file], o) => {
      if (o.chunk > 500)
        throw new UsageError('--chunk is at most 500 (the ledger takes 500 claims per batch)');
      const input = ctx.path(file!);
      await access(input).catch(() => {
        throw new UsageError(`cannot read ${file}`);
      });
      const format: InputFormat = o.format ?? formatOf(input);
      const template = parseKeyTemplate(o.key);
      const tenant = await ctx.tenant();
      const resultsPath = ctx.path(o.results ?? `${file}.results.ndjson`);
      const showProgress = ctx.progress && ctx.io.stderr.isTTY === true;
      const total = showProgress ? await countLines(input, ctx.io.signal) : 0;
      const progress = startProgress(ctx.io.stderr, {
        total: Math.max(0, total - (format === 'csv' ? 1 : 0)),
        label: 'backfill',
        enabled: showProgress,
      });
      const results = new ResultsFile(resultsPath);
      let summary: BackfillSummary;
      try {
        summary = await runBackfill(
          ctx.client,
          {
            input,
            format,
            tenant,
            source: o.source,
            action: o.action,
            template,
            payloadFields: o.payloadFields
              ?.split(',')
              .map((f: string) => f.trim())
              .filter(Boolean),
            refField: o.refField,
            chunkSize: o.chunk,
            concurrency: o.concurrency,
            leaseMs: o.leaseMs,
            workerId: o.workerId,
          },
          results,
          (n) => progress.increment(n),
          ctx.io.signal,
        );
      } finally {
        progress.stop();
        await results.close();
      }
      printSummary(ctx, summary, resultsPath);
      const clean = summary.refused + summary.conflicts + summary.inProgress === 0 && !summary.interrupted;
      return clean ? EXIT.ok : EXIT.refused;
    }),
  );
}

function printSummary(ctx: CommandContext, s: BackfillSummary, resultsPath: string): void {
  if (ctx.json) return ctx.printJson({ ...s, results: resultsPath });
  ctx.print(
    table(
      ['LINES', 'ACQUIRED', 'REPLAYED', 'CONFLICTS', 'IN PROGRESS', 'REFUSED'],
      [
        [
          s.lines,
          s.resumed ? `${s.acquired} (${s.resumed} resumed)` : s.acquired,
          s.replayed,
          s.conflicts,
          s.inProgress,
          s.refused,
        ],
      ],
    ),
  );
  ctx.print(`results per line in ${resultsPath}`);
  if (s.interrupted)
    ctx.print('interrupted: run the same command again to finish (finished lines are replayed)');
  else if (s.refused + s.conflicts + s.inProgress > 0)
    ctx.print('some lines were not recorded: see the results file (status, code, detail)');
}
