import { jest } from '@jest/globals';

// Whole matches over HTTP take seconds; a hung one still fails, just not on a hair trigger.
jest.setTimeout(180_000);
