import { Module } from '@nestjs/common';
import { PoliciesController } from './policies.controller.js';
import { PolicyStore } from './policy-store.js';

/** Versioned, audited action policies (stored as event streams). Needs EVENT_STORE. */
@Module({
  controllers: [PoliciesController],
  providers: [PolicyStore],
  exports: [PolicyStore],
})
export class PoliciesModule {}
