import {
  canonicalKey as canonicalKeyOf,
  operationIdFor,
  type OperationKeyInput,
} from '@operation-ledger/protocol';

/** A key as operators type it; `revision` defaults to 1. */
export type KeyInput = OperationKeyInput;

/**
 * The canonical key `tenant/source/action/subject@revision` (docs/api.md "Operation identity"), each
 * part NFC-normalised first: operators type keys, and the ledger refuses other spellings.
 */
export function canonicalKey(key: KeyInput): string {
  return canonicalKeyOf(normalised(key));
}

/**
 * The operationId of `key`, computed in the browser exactly as the ledger does: the protocol's
 * UUID v5 of the canonical key, synchronous and needing no secure context.
 */
export function operationIdOf(key: KeyInput): string {
  return operationIdFor(normalised(key));
}

function normalised(key: KeyInput) {
  return {
    tenant: key.tenant.normalize('NFC'),
    source: key.source.normalize('NFC'),
    action: key.action.normalize('NFC'),
    subject: key.subject.normalize('NFC'),
    revision: key.revision ?? 1,
  };
}
