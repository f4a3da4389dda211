/**
 * Which round-trip shortcuts the ledger accepts (`startStep`, `completeStep`), from its
 * `capabilities` or learnt from a 400 naming the field; `undefined` = not known yet.
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
