import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { readFile } from 'node:fs/promises';
import { LEDGER_CONFIG } from '../config/config.token.js';
import { ConfigError, type LedgerConfig } from '../config/ledger-config.js';
import { keyPartIssue, parseActionPolicy } from '../ledger/index.js';
import { PolicyStore } from './policy-store.js';
import { ANY_ACTION } from './policy-stream.js';

/** Actor recorded on versions written from the policy file. */
export const POLICY_FILE_ACTOR = 'policy-file';

/**
 * Applies `LEDGER_POLICY_FILE` (`[{ tenant, action, policy }]`) at start-up: each entry differing
 * from the version in force becomes a new version by `policy-file`, audited like the API's.
 * @throws ConfigError naming the entry and field when the file is unreadable or invalid.
 */
@Injectable()
export class PolicyFileLoader implements OnApplicationBootstrap {
  private readonly logger = new Logger('Policies');

  constructor(
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
    private readonly policies: PolicyStore,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const file = this.config.policyFile;
    if (!file) return;
    let entries: unknown;
    try {
      entries = JSON.parse(await readFile(file, 'utf8'));
    } catch (err) {
      throw new ConfigError(`LEDGER_POLICY_FILE ${file}: ${(err as Error).message}`);
    }
    if (!Array.isArray(entries)) throw new ConfigError(`LEDGER_POLICY_FILE ${file}: must be a JSON array`);
    let written = 0;
    for (const [i, entry] of entries.entries()) {
      const { tenant, action, policy } = (entry ?? {}) as Record<string, unknown>;
      const where = `LEDGER_POLICY_FILE ${file} [${i}]`;
      const tenantIssue = keyPartIssue('tenant', tenant);
      if (tenantIssue) throw new ConfigError(`${where}: ${tenantIssue.message}`);
      const actionIssue = action === ANY_ACTION ? null : keyPartIssue('action', action);
      if (actionIssue) throw new ConfigError(`${where}: ${actionIssue.message}`);
      const parsed = parseActionPolicy(policy);
      if (!parsed.ok)
        throw new ConfigError(`${where}: ${parsed.issues.map((x) => `${x.field} ${x.message}`).join('; ')}`);
      const current = await this.policies.policyFor(tenant as string, action as string);
      if (current.source === 'action' && JSON.stringify(current.policy) === JSON.stringify(parsed.value))
        continue;
      await this.policies.setPolicy(tenant as string, action as string, parsed.value, {
        actor: POLICY_FILE_ACTOR,
        reason: `applied from ${file}`,
      });
      written++;
    }
    this.logger.log(`policy file ${file}: ${entries.length} entries, ${written} new version(s)`);
  }
}
