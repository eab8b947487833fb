import { fileURLToPath } from 'node:url';

/** The scenario the README shows, used by these tests. */
export const FIXTURES = fileURLToPath(new URL('./fixtures/scenario.json', import.meta.url));
