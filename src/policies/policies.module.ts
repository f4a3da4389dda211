import { Module } from '@nestjs/common';
import { PoliciesController } from './policies.controller.js';
import { PolicyFileLoader } from './policy-file-loader.js';
import { PolicyStore } from './policy-store.js';

/**
 * Versioned, audited action policies (stored as event streams), and the policy file applied at
 * start-up (`LEDGER_POLICY_FILE`). Needs EVENT_STORE and LEDGER_CONFIG.
 */
@Module({
  controllers: [PoliciesController],
  providers: [PolicyStore, PolicyFileLoader],
  exports: [PolicyStore],
})
export class PoliciesModule {}
