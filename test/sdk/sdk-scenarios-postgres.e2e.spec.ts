// W1–W3 and C7–C9 through the worker SDK, on PostgreSQL (a fresh database of the local server).
import { sdkScenarios } from './support/sdk-scenarios.js';

describe('worker SDK scenarios on PostgreSQL', () => sdkScenarios('postgres'));
