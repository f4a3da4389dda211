/**
 * Fault tests (`npm run test:fault`, NOT part of `npm test`): they stop and restart the local
 * PostgreSQL cluster, so they run alone, after the other tiers (.ci/run). Same SWC transform as
 * jest.config.js; files named *.fault.spec.ts.
 */
import base from './jest.config.js';

const { displayName: _name, testMatch: _match, ...common } = base.projects[0];

export default {
  projects: [{ ...common, displayName: 'fault', testMatch: ['<rootDir>/test/fault/**/*.fault.spec.ts'] }],
};
