/**
 * Which round-trip shortcuts the ledger accepts, learnt from its answers: a claim naming
 * `startStep` (answered with `startedStep`) and a confirm carrying `completeStep`. `undefined`
 * = not tried yet; an older ledger refuses the field with 400 naming it, and the SDK then falls
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
}
