/** One page of an in-memory list, saying honestly whether more follow. */
export function pageOf<T>(
  rows: readonly T[],
  offset: number,
  limit: number,
): {
  items: T[];
  total: number;
  offset: number;
  limit: number;
  has_more: boolean;
  next_offset: number | null;
} {
  const items = rows.slice(offset, offset + limit);
  const end = offset + items.length;
  const hasMore = end < rows.length;
  return { items, total: rows.length, offset, limit, has_more: hasMore, next_offset: hasMore ? end : null };
}
