import { useDebouncedCallback } from '@mantine/hooks';
import { useState, type ChangeEvent } from 'react';
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

export type FilterParams = ReturnType<typeof useFilterParams>;

/**
 * A typed filter of `filters` (a search, a tag), kept in the URL under `key`: the field shows
 * what is typed at once and the URL follows 300 ms after the last key, so a list asks once per
 * pause, not once per letter. Spread `field` on the text input; `cancel` drops a change still
 * waiting (before leaving the list), `clear` empties the field (the URL is the caller's).
 */
export function useTypedFilter(filters: FilterParams, key: string) {
  const [text, setText] = useState(filters.get(key) ?? '');
  const apply = useDebouncedCallback(
    (value: string) => filters.set({ [key]: value.trim() || null }),
    300,
  );
  return {
    field: {
      value: text,
      onChange: (event: ChangeEvent<HTMLInputElement>) => {
        setText(event.currentTarget.value);
        apply(event.currentTarget.value);
      },
    },
    cancel: apply.cancel,
    clear: () => setText(''),
  };
}
