import { describe } from 'node:test';
import { startCofferProcess } from '../support/coffer-process.ts';
import { currentStackName } from '../support/test-stack.ts';
import { concurrencyScenarios } from './concurrency-scenarios.ts';

// Embedded: two processes over one SQLite file (its locks and BEGIN IMMEDIATE keep them apart).
describe(`concurrency on serve --workers 2 (${currentStackName()} stack)`, () => {
  concurrencyScenarios(() => startCofferProcess({ args: ['--workers', '2'] }));
});
