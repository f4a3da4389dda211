import { ValidateBy, type ValidationOptions } from 'class-validator';

/** Largest global position (PostgreSQL `bigint`, EventStoreDB's commit positions fit too). */
const MAX_POSITION = 2n ** 63n - 1n;

/** What a malformed `lastEventId` / `Last-Event-ID` is told. */
export const EVENT_ID_MESSAGE = 'must be an event id (a decimal position) sent by this stream';

/**
 * Whether `text` is an event id a feed sends: a global position `0..2^63-1` in plain decimal, or
 * `-1` (the id of `ready` on a feed with no events yet).
 */
export function isEventId(text: string): boolean {
  if (text === '-1') return true;
  return /^(0|[1-9]\d{0,18})$/.test(text) && BigInt(text) <= MAX_POSITION;
}

/** class-validator decorator of {@link isEventId}; the message names the parameter. */
export function IsEventId(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isEventId',
      validator: {
        validate: (value) => typeof value === 'string' && isEventId(value),
        defaultMessage: (args) => `${args?.property ?? 'lastEventId'} ${EVENT_ID_MESSAGE}`,
      },
    },
    options,
  );
}
