import { RECONCILIATION_CATEGORIES } from '@operation-ledger/client';
import type { Command } from 'commander';
import { examples, type Kit, type Opts } from '../command-kit.js';
import { UsageError } from '../exit-codes.js';
import { collect, durationMs, oneOf, timeArg } from '../parse-options.js';
import { flagOf, reconciliationOptions, sourceIntentOptions, UPLOAD_ONLY } from '../reconcile/run-options.js';
import { startReconciliationRun } from '../reconcile/start-run.js';
import { collectFailOn } from '../reconcile/fail-on.js';
import { printRun } from '../reconcile/print-run.js';
import { openExport } from '../reconcile/upload-file.js';
import { printReconciliationReport } from './reconcile-report.js';
import { registerReconcileRuns } from './reconcile-runs.js';

const FORMATS = ['csv', 'ndjson'] as const;

/**
 * `ledger reconcile`: with `--destination`, a reconciliation against the destination's export
 * (and the source's intents) run by the ledger (docs/reconciliation.md); without it, the outcome
 * report of the operations first seen in a period. `list`, `show`, `items` read runs.
 */
export function registerReconcile(program: Command, kit: Kit): void {
  const reconcile = examples(
    program
      .command('reconcile')
      .description(
        "with --destination: compare the destination's export (and the source's intents) with the ledger — lost effects, second effects, orphans, never claimed; without: outcomes of the operations first seen in [from, to)",
      )
      .option('--action <action>', 'only this action')
      .option('--from <time>', 'first seen from (inclusive; ISO 8601, a date, or 2h ago)', timeArg)
      .option('--to <time>', 'first seen until (exclusive)', timeArg)
      .option(
        '--destination <file>',
        'the export to compare: .csv, .ndjson or .jsonl, optionally .gz; - stdin',
      )
      .option('--source <file>', "the source's intents (orders…): each row becomes an operation key")
      .option(
        '--match <what>',
        'what the reference holds: operationId (default), providerKey, subject',
        oneOf(['operationId', 'providerKey', 'subject'] as const),
      )
      .option('--ref-field <column>', 'column of the reference the worker stored (default reference)')
      .option('--id-field <column>', "column of the destination's record id (default id)")
      .option('--ref-prefix <text>', 'stripped from each reference before matching')
      .option('--compare <fields>', 'columns compared with the payload: title,total=/amount/total', collect)
      .option(
        '--apply <what>',
        'evidence: resolve unknown outcomes found (operator)',
        oneOf(['evidence', 'none']),
      )
      .option(
        '--source-key <template>',
        "the key of each source row, as backfill's --key: 'subject=order:${order}' (also source=, action=, revision=)",
      )
      .option('--source-id-field <column>', 'the source rows carry operation ids in this column')
      .option('--format <format>', 'format of --destination (default: from its name)', oneOf(FORMATS))
      .option('--source-format <format>', 'format of --source (default: from its name)', oneOf(FORMATS))
      .option('--gzip', 'compress the uploads on the way (.gz files are always sent as they are)')
      .option('--no-wait', 'print the run once uploaded; follow it with ledger reconcile show <id>')
      .option('--poll <duration>', 'between status polls, e.g. 2s (default 500ms)', durationMs)
      .option('--csv <file>', 'report form: also export every line as CSV to this file (- for stdout)')
      .option(
        '--fail-on <category...>',
        `exit 1 when the run found any item of these categories (for scheduled runs): ${RECONCILIATION_CATEGORIES.join(', ')}; comma-separated or repeated`,
        collectFailOn,
      ),
    [
      'ledger reconcile --action invoice.create --destination billing-export.csv --ref-field memo',
      'ledger reconcile --action invoice.create --destination billing-export.csv --fail-on duplicate_effect,missing_at_destination',
      "ledger reconcile --action ticket.create --destination tickets.csv --source orders.ndjson --match subject --ref-field externalRef --source-key 'subject=order:${order},source=shop' --compare title --apply evidence",
      'ledger reconcile list',
      'ledger reconcile items <run> --category duplicate_effect',
      'ledger reconcile --action invoice.create --from 2025-01-01 --to 2025-02-01 --csv january.csv',
    ],
  ).action(
    kit.act(async (ctx, _args, o) => {
      if (!o.destination) return printReconciliationReport(ctx, checkedReportOptions(o));
      if (o.csv)
        throw new UsageError('--csv is the report form: use ledger reconcile items <run> --csv <file>');
      if (o.from && o.to && Date.parse(o.to) <= Date.parse(o.from))
        throw new UsageError('--to must be after --from');
      if ((o.sourceKey || o.sourceIdField || o.sourceFormat) && !o.source)
        throw new UsageError('--source-key, --source-id-field and --source-format need --source');
      if (o.failOn && o.wait === false)
        throw new UsageError('--fail-on judges the finished run: leave out --no-wait');
      if (o.destination === '-' && o.source === '-')
        throw new UsageError('only one of the files can be stdin');
      const sourceOptions = sourceIntentOptions(o);
      const open = (flag: string, file: string, format: Opts['format']) =>
        openExport(flag, file === '-' ? '-' : ctx.path(file), ctx.io.stdin, { format, gzip: o.gzip });
      const destination = await open('--destination', o.destination, o.format);
      const source = o.source ? await open('--source', o.source, o.sourceFormat) : undefined;
      const tenant = await ctx.tenant();
      const run = await startReconciliationRun(ctx, ctx.client.reconciliation, {
        tenant,
        destination,
        options: reconciliationOptions(o),
        source: source ? { file: source, options: sourceOptions } : undefined,
        wait: o.wait !== false,
        intervalMs: o.poll ?? 500,
      });
      return printRun(ctx, run, o.failOn ?? []);
    }),
  );
  registerReconcileRuns(reconcile, kit);
}

/** The report form needs --action, --from and --to, and none of the upload form's options. */
function checkedReportOptions(o: Opts): { action: string; from: string; to: string; csv?: string } {
  const upload = UPLOAD_ONLY.find((name) => o[name] !== undefined);
  if (upload) throw new UsageError(`${flagOf(upload)} needs --destination`);
  for (const name of ['action', 'from', 'to'] as const)
    if (!o[name]) throw new UsageError(`the report form needs --${name} (or give --destination)`);
  if (Date.parse(o.to) <= Date.parse(o.from)) throw new UsageError('--to must be after --from');
  return { action: o.action, from: o.from, to: o.to, csv: o.csv };
}
