import { useSearchParams } from 'react-router';

/** Filters kept in the URL (so Back and shared links keep them); changing one resets the page. */
export function useFilterParams() {
  const [params, setParams] = useSearchParams();
  const get = (key: string) => params.get(key) || null;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const set = (changes: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        if (!('page' in changes)) next.delete('page');
        return next;
      },
      // A filter changes the list in place: the page stays where it is (a new page opens at its
      // top: `ScrollRestoration` in the app layout).
      { replace: true, preventScrollReset: true },
    );
  const setPage = (n: number) => set({ page: n > 1 ? String(n) : null });
  return { get, page, set, setPage };
}
