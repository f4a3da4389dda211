import type { Me } from './session.js';

/** What every page gets: who is signed in and which tenant is shown. */
export interface PageProps {
  readonly me: Me;
  readonly tenant: string;
}
