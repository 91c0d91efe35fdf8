/** The range shown, e.g. "Showing 26–50 of 73 users". */
export function rangeText(
  page: number,
  pageSize: number,
  shown: number,
  total: number,
  noun: string,
) {
  if (total === 0 || shown === 0) return `No ${noun}`;
  const first = (page - 1) * pageSize + 1;
  return `Showing ${first}–${first + shown - 1} of ${total} ${noun}`;
}
