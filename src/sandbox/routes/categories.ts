// GET /api/v1/categories (spec 2.4, 4.3): the flat catalogue with parent links. The locale comes from
// the authenticated user, else the query parameter, else en_US; en_US and sv_SE names exist.
import { EP } from '../../contract/index.js';
import type { SandboxContext } from '../context.js';
import { CATEGORIES, apiCategory } from '../categories.js';
import { badRequest } from '../http.js';

export function registerCategories(ctx: SandboxContext): void {
  const { store, handle } = ctx;
  handle(EP.reads.categories, (req, res) => {
    const q = req.query.get('locale');
    if (q !== null && q !== '' && !/^[a-z]{2}(_[A-Z]{2})?$/.test(q)) {
      throw badRequest(`locale must look like en_US or sv_SE, got "${q.slice(0, 20)}"`, { field: 'locale' });
    }
    const userLocale = req.auth?.userId ? store.users.get(req.auth.userId)?.locale : undefined;
    const locale = userLocale ?? (q || 'en_US');
    res.json(
      200,
      CATEGORIES.map((c) => apiCategory(c, locale)),
    );
  });
}
