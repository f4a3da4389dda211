import { access } from 'node:fs/promises';
import type { Command } from 'commander';
import { parseKeyTemplate, templateFields, type KeyTemplate } from '../backfill/key-template.js';
import { countLines, csvColumns, formatOf, type InputFormat } from '../backfill/records.js';
import { keepEarlierResults, ResultsFile } from '../backfill/results.js';
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
      .option(
        '--results <file>',
        "the results file: .ndjson, or .csv (default <file>.results.ndjson); an earlier run's is kept as <name>.1.ndjson, …",
      )
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
      if (format === 'csv') await checkColumns(input, file!, template, o.refField, ctx.io.signal);
      const tenant = await ctx.tenant();
      const resultsPath = ctx.path(o.results ?? `${file}.results.ndjson`);
      const earlier = await keepEarlierResults(resultsPath);
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
      printSummary(ctx, summary, resultsPath, earlier);
      const clean = summary.refused + summary.conflicts + summary.inProgress === 0 && !summary.interrupted;
      return clean ? EXIT.ok : EXIT.refused;
    }),
  );
}

/**
 * Refuses (once, before anything is claimed) a CSV whose header lacks a field the key template
 * or `--ref-field` reads — else every line would be refused with the same message.
 * @throws UsageError naming the missing fields and the columns there are.
 */
async function checkColumns(
  input: string,
  file: string,
  template: KeyTemplate,
  refField: string | undefined,
  signal?: AbortSignal,
): Promise<void> {
  const columns = (await csvColumns(input, signal)) ?? [];
  const wanted = [
    ...templateFields(template).map((f) => ['--key', f]),
    ...(refField ? [['--ref-field', refField]] : []),
  ];
  const missing = wanted.filter(([, f]) => !columns.includes(f!));
  if (missing.length === 0) return;
  throw new UsageError(
    `${missing.map(([flag, f]) => `${flag} reads field ${f}`).join(', ')}, which is not a column of ${file} (columns: ${columns.join(', ') || 'none'})`,
  );
}

function printSummary(
  ctx: CommandContext,
  s: BackfillSummary,
  resultsPath: string,
  earlier: string | null,
): void {
  if (ctx.json)
    return ctx.printJson({ ...s, results: resultsPath, ...(earlier ? { earlierResults: earlier } : {}) });
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
  if (earlier) ctx.print(`the earlier run's results are kept in ${earlier}`);
  if (s.interrupted)
    ctx.print('interrupted: run the same command again to finish (finished lines are replayed)');
  else if (s.refused + s.conflicts + s.inProgress > 0)
    ctx.print('some lines were not recorded: see the results file (status, code, detail)');
}
