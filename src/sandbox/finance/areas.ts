// The finance areas of issue 7, registered together from src/sandbox/areas.ts.
import type { SandboxContext } from '../context.js';
import { registerCalendar } from '../routes/calendar.js';
import { registerReports } from '../routes/reports.js';
import { registerTransfers } from '../routes/transfers.js';
import { registerStatistics } from '../routes/statistics.js';
import { registerBudgets } from '../routes/budgets.js';
import { registerInsights } from '../routes/insights.js';
import { registerSearch } from '../routes/search.js';

export function registerFinanceAreas(ctx: SandboxContext): void {
  registerCalendar(ctx);
  registerReports(ctx);
  registerTransfers(ctx);
  registerStatistics(ctx);
  registerBudgets(ctx);
  registerInsights(ctx);
  registerSearch(ctx);
}
