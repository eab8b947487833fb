// Runs in every test file: temporary directories go when the file is done.
import { afterAll } from 'vitest';
import { cleanupTempDirs } from './cli.js';

afterAll(() => cleanupTempDirs());
