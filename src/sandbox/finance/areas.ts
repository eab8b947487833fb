// The finance areas of issue 7, registered together from src/sandbox/areas.ts.
import type { SandboxContext } from '../context.js';
import { registerCalendar } from '../routes/calendar.js';
import { registerReports } from '../routes/reports.js';
import { registerTransfers } from '../routes/transfers.js';

export function registerFinanceAreas(ctx: SandboxContext): void {
  registerCalendar(ctx);
  registerReports(ctx);
  registerTransfers(ctx);
}
