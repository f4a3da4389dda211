/**
 * Content-Security-Policy of every `/console` answer (CSP Level 3, W3C): scripts, styles, data
 * requests and images only from the ledger's own origin; no inline script or style, no eval, no
 * plugins, no framing, no form posts elsewhere, no `<base>` rewriting. The console keeps its API
 * key in sessionStorage and sends it only to `/v1` on the same origin (`connect-src 'self'`).
 * `blob:` images/downloads are needed for the CSV export (an object URL of the fetched body).
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/** Security headers sent with every console file (the CSP plus the usual hardening headers). */
export const CONSOLE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONSOLE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};
