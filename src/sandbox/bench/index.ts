// The sandbox as a test bench (issue 17): the /sandbox/* state controls, the clock, fixtures, the
// request log and /openapi.json, as one area of the emulator.
import { EP } from '../../contract/index.js';
import type { SandboxContext } from '../context.js';
import { handleAll, type RouteRow } from '../router.js';
import { addTransactionsHandler, clock, expireConsent, reset, setClock, setStatus } from './controls.js';
import { loadFixturesHandler } from './fixtures.js';
import { logs } from './logs.js';
import { openApiDocument } from './openapi.js';

const ROUTES: Array<RouteRow<SandboxContext>> = [
  [EP.bench.setStatus, setStatus, { maxBody: 16 * 1024 }],
  [EP.bench.expireConsent, expireConsent, { maxBody: 16 * 1024 }],
  [EP.bench.addTransactions, addTransactionsHandler],
  [EP.bench.clock, clock],
  [EP.bench.setClock, setClock, { maxBody: 16 * 1024 }],
  [EP.bench.reset, reset, { maxBody: 16 * 1024 }],
  [EP.bench.load, loadFixturesHandler, { maxBody: 8 * 1024 * 1024 }],
  [EP.bench.logs, logs],
  [
    EP.bench.openapi,
    (ctx) => {
      let doc: Buffer | undefined;
      return (_req, res) => {
        doc ??= Buffer.from(JSON.stringify(openApiDocument(ctx.bench!.table, ctx.baseUrl())));
        res.send(200, doc, 'application/json');
      };
    },
  ],
];

export function registerBench(ctx: SandboxContext): void {
  handleAll(ctx.handle, ctx, ROUTES);
}
