import type { Logger } from '@nestjs/common';
import type { BootstrapOutcome } from './bootstrap-admin-key.js';

/**
 * Tells the operator what {@link bootstrapAdminKey} did. A newly created first admin token is
 * written once to stdout (not to the log), framed so it is hard to miss; it is never shown again.
 */
export function announceBootstrap(
  outcome: BootstrapOutcome,
  logger: Logger,
  write: (s: string) => unknown = (s) => process.stdout.write(s),
): void {
  if (outcome.kind === 'from-environment') {
    logger.log(
      `admin key ${outcome.keyId} from LEDGER_ADMIN_TOKEN ${outcome.installed ? 'installed' : 'present'}`,
    );
    return;
  }
  if (outcome.kind !== 'created') return;
  write(
    [
      '',
      '==================================================================================',
      ' First run: created an admin API key (tenant "*", role admin). It is shown ONCE:',
      '',
      `   ${outcome.token}`,
      '',
      ' Keep it in a secret store. Use it as "Authorization: Bearer <token>" to create',
      ' worker/operator/auditor keys: POST /v1/admin/keys, or `npm run keys -- create`.',
      '==================================================================================',
      '',
    ].join('\n'),
  );
}
