// The sandbox of the push benchmark, in its own process so it is not measured with the CLI.
// Prints {"baseUrl","connectorToken"} once listening; answers "heap\n" on stdin with the heap in
// use after a full GC (run node with --expose-gc), for bytes per stored transaction.
import { createInterface } from 'node:readline';
import { startSandbox } from '../dist/sandbox.js';

const sb = await startSandbox({ port: 0 });
process.stdout.write(`${JSON.stringify({ baseUrl: sb.baseUrl, connectorToken: sb.connectorToken })}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === 'heap') {
    for (let i = 0; i < 3; i++) globalThis.gc?.();
    process.stdout.write(`${JSON.stringify({ heapUsed: process.memoryUsage().heapUsed, transactions: sb.store.transactions.size })}\n`);
  }
}
await sb.close();
