/** What an `Authorization` header holds, as far as Bearer authentication is concerned. */
export type PresentedCredentials =
  | { readonly kind: 'none' }
  | { readonly kind: 'malformed' }
  | { readonly kind: 'bearer'; readonly token: string };

/** Longest Authorization header we look at; longer ones are malformed (tokens are ~72 characters). */
const MAX_HEADER_LENGTH = 1024;

/**
 * Reads `Authorization: Bearer <token>` (RFC 6750 §2.1; the scheme is case-insensitive, RFC 9110
 * §11.1). No header → `none`; another scheme, an empty or over-long value, or several headers →
 * `malformed`.
 */
export function presentedCredentials(header: string | string[] | undefined): PresentedCredentials {
  if (header === undefined) return { kind: 'none' };
  if (typeof header !== 'string' || header.length > MAX_HEADER_LENGTH) return { kind: 'malformed' };
  const m = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i.exec(header);
  return m ? { kind: 'bearer', token: m[1]! } : { kind: 'malformed' };
}
