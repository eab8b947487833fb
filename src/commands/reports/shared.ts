// What the report verbs share: a report as one readable table row.
export function reportView(r: Record<string, unknown>): Record<string, unknown> {
  const providers = (r.userDataByProvider as Array<{ accounts?: unknown[] }> | undefined) ?? [];
  return {
    id: r.id,
    userId: r.userId,
    created: typeof r.created === 'number' ? new Date(r.created).toISOString() : r.created,
    expires: typeof r.expiresAt === 'number' ? new Date(r.expiresAt).toISOString() : r.expiresAt,
    accounts: providers.reduce((n, p) => n + (p.accounts?.length ?? 0), 0),
  };
}
