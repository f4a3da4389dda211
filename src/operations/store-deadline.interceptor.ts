import {
  type CallHandler,
  type ExecutionContext,
  Inject,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import type { Observable } from 'rxjs';
import { onRequestStoreBudget } from '../common/request-store-budget.js';
import { LEDGER_CONFIG } from '../config/config.token.js';
import type { LedgerConfig } from '../config/ledger-config.js';

/**
 * Runs a route of one operation under the request's store deadline: any wait on the store ends
 * with 503 once `LEDGER_STORE_TIMEOUT_MS` has passed (docs/production-ha.md "What clients see
 * during a failover"). Streaming and batch routes do not use it.
 */
@Injectable()
export class StoreDeadlineInterceptor implements NestInterceptor {
  constructor(@Inject(LEDGER_CONFIG) private readonly config: LedgerConfig) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    // Nest binds the handler to the async context `handle()` is called in (AsyncLocalStorage).
    return onRequestStoreBudget(context.switchToHttp().getRequest<object>(), this.config.storeTimeoutMs, () =>
      next.handle(),
    );
  }
}
