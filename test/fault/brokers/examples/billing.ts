/** The destination of the docs' examples: creates one invoice per call (no deduplication). */
export interface Billing {
  create(order: unknown, idempotencyKey: string): Promise<string>;
}

/** A billing double that counts invoices per idempotency key. */
export function countingBilling(): Billing & { readonly invoices: Map<string, number> } {
  const invoices = new Map<string, number>();
  return {
    invoices,
    async create(_order, idempotencyKey) {
      invoices.set(idempotencyKey, (invoices.get(idempotencyKey) ?? 0) + 1);
      return `INV-${invoices.size}`;
    },
  };
}
