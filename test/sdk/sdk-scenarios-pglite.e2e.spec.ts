// W1–W3 and C7–C9 through the worker SDK, on the embedded PGlite store.
import { sdkScenarios } from './support/sdk-scenarios.js';

describe('worker SDK scenarios on PGlite', () => sdkScenarios('pglite'));
