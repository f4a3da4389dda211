/**
 * Which round-trip shortcuts the ledger accepts: a claim naming `startStep` (answered with
 * `startedStep`) and a confirm carrying `completeStep`. Set from the ledger's `capabilities`
 * list (`GET /health`, see `Capabilities`) when it has one; `undefined` = not known yet — a
 * ledger without the list refuses an unknown field with 400 naming it, and the SDK then falls
 * back to the separate requests for the rest of the client's life.
 */
export class Shortcuts {
  claimStartStep: boolean | undefined;
  confirmCompleteStep: boolean | undefined;
  /**
   * The ledger accepts a claim's `claimRequestId` (learnt like the shortcuts, but not turned off
   * by the `shortcuts` option: it is what keeps a retried claim from colliding with itself).
   */
  claimRequestIds: boolean | undefined;

  constructor(readonly enabled: boolean) {
    if (!enabled) {
      this.claimStartStep = false;
      this.confirmCompleteStep = false;
    }
  }

  /** Takes the ledger's own list of features; `null` (no list) leaves the learning to 400s. */
  learn(features: ReadonlySet<string> | null): void {
    if (!features) return;
    this.claimStartStep = this.enabled && features.has('claim-start-step');
    this.confirmCompleteStep = this.enabled && features.has('confirm-complete-step');
    this.claimRequestIds = features.has('claim-request-id');
  }
}
