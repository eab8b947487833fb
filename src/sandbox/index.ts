// Entry point of the sandbox chunk: loaded only by `sandbox start`, `demo`, `smoke` and the tests.
export { startSandbox, DEFAULT_REDIRECT_URI, type Sandbox } from './server.js';
export { SandboxClock } from './store.js';
export type { SandboxOptions } from './context.js';
