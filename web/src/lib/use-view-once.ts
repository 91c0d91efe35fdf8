/**
 * Counts one view of a record per visit of its page: `record(id)` once for each id the page
 * shows, not again on re-renders or refetches (the server's content lifecycle counts it, and
 * leaves out the record's own author; docs/architecture.md, "The content lifecycle").
 */
import { useEffect, useRef } from 'react';

export function useViewOnce(id: string, record: (id: string) => void): void {
  const viewed = useRef<string | null>(null);
  useEffect(() => {
    if (viewed.current === id) return;
    viewed.current = id;
    record(id);
  }, [id, record]);
}
