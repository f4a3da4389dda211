import { getJson, postJson } from './routes.js';
import type { Transport } from './transport.js';

/** `ledger.projections`: the projectors behind the read models. Roles: admin or operator. */
export class ProjectionsApi {
  constructor(private readonly transport: Transport) {}

  /** `GET /v1/projections` (or one by name): projector status. */
  status(name?: string) {
    return getJson<Record<string, unknown>>(
      this.transport,
      name ? `/v1/projections/${encodeURIComponent(name)}` : '/v1/projections',
    );
  }

  /** `POST /v1/projections/{name}/rebuild`: online rebuild into shadow tables. */
  rebuild(name: string): Promise<Record<string, unknown>> {
    return postJson(this.transport, `/v1/projections/${encodeURIComponent(name)}/rebuild`, {});
  }
}
