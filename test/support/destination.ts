/**
 * A simulated destination (invoice system, CRM, ticket tracker): records every effect so tests
 * count business effects, not status codes. Honours provider idempotency keys like Stripe does
 * when `honourIdempotencyKeys` is on; off by default so duplicates would show.
 */
export class Destination {
  readonly records: { id: string; externalRef: string; idempotencyKey?: string }[] = [];
  private seq = 0;

  constructor(private readonly honourIdempotencyKeys = false) {}

  /** Creates a record and returns its id. */
  create(externalRef: string, idempotencyKey?: string): string {
    if (this.honourIdempotencyKeys && idempotencyKey) {
      const seen = this.records.find((r) => r.idempotencyKey === idempotencyKey);
      if (seen) return seen.id;
    }
    const id = `REC-${++this.seq}`;
    this.records.push({ id, externalRef, idempotencyKey });
    return id;
  }

  /** Records with this external reference (recovery lookup). */
  find(externalRef: string) {
    return this.records.filter((r) => r.externalRef === externalRef);
  }

  get count(): number {
    return this.records.length;
  }
}
