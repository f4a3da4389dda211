/** DI token of the process's {@link EventStore}. */
export const EVENT_STORE = Symbol('EVENT_STORE');
