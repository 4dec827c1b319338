import { describe } from 'node:test';
import { startTestServer } from '../support/in-process-server.ts';
import { currentStackName } from '../support/test-stack.ts';
import { concurrencyScenarios } from './concurrency-scenarios.ts';

describe(`concurrency on one process (${currentStackName()} stack)`, () => {
  concurrencyScenarios(() => startTestServer());
});
