/** Any JSON value. */
export type Json = null | boolean | number | string | Json[] | { [member: string]: Json };
