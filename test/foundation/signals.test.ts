// Its own file, so that conf is imported here for the first time in this worker.
import { describe, expect, test } from 'vitest';
import { tempDir } from '../helpers/cli.js';

describe('signals', () => {
  test("opening the config leaves no signal handlers behind (conf's when-exit would re-send Ctrl-C)", async () => {
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
    const before = signals.map((s) => process.listeners(s).length);
    const { ConfigStore } = await import('../../src/config/store.js');
    const store = await ConfigStore.open(tempDir());
    store.set('default', 'output', 'json');
    expect(signals.map((s) => process.listeners(s).length)).toEqual(before);
  });
});
