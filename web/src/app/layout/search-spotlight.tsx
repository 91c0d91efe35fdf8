/**
 * The header's search box (docs/search.md): Mantine Spotlight over GET /api/search, queried as
 * one types (debounced). Arrow keys choose a result and Enter opens it; Enter with none chosen,
 * or "See all results", opens the results page. Loaded the first time search is opened
 * (app-layout.tsx), so neither the spotlight nor its styles weigh on the first page.
 */
import { Badge, Group, Loader, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { createSpotlight, Spotlight } from '@mantine/spotlight';
import '@mantine/spotlight/styles.css';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { HighlightedText } from '../../components/highlighted-text';
import {
  hasSearchTerms,
  RESULT_KIND,
  resultPath,
  searchErrorText,
  searchPagePath,
  useSearch,
} from '../../features/search/api/search-api';

const [store, spotlight] = createSpotlight();

/** How many results the box shows; the rest are on the results page. */
export const SPOTLIGHT_RESULTS = 8;

const RESULTS_SCROLL_PROPS = { viewportProps: { tabIndex: 0 } } as Record<string, unknown>;

export function SearchSpotlight({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query.trim(), 200);
  const navigate = useNavigate();
  const searchable = hasSearchTerms(debounced);
  const { data, isFetching, isError, error } = useSearch({
    q: debounced,
    pageSize: SPOTLIGHT_RESULTS,
  });
  const results = searchable ? (data?.items ?? []) : [];
  const total = searchable ? (data?.total ?? 0) : 0;

  useEffect(() => {
    if (opened) spotlight.open();
    else spotlight.close();
  }, [opened]);

  // Enter opens a result only when an arrow key chose it since the query last changed; else the
  // results page. (Mantine marks the first result as chosen whenever the query changes, even
  // while the results on screen are still those of the query before: Enter must not open one of
  // those. The results are keyed by their query, so no element stays marked across queries.)
  const shown = searchable ? debounced : '';
  const chosenByKeys = useRef(false);
  const unchoose = () => {
    const { listId } = store.getState();
    const list = listId ? document.getElementById(listId) : null;
    list?.querySelectorAll('[data-selected]').forEach((el) => el.removeAttribute('data-selected'));
    store.updateState((state) => ({ ...state, selected: -1 }));
  };

  const seeAll = () => {
    if (!hasSearchTerms(query)) return;
    spotlight.close();
    void navigate(searchPagePath(query.trim()));
  };

  return (
    <Spotlight.Root
      store={store}
      query={query}
      onQueryChange={(next) => {
        chosenByKeys.current = false;
        setQuery(next);
      }}
      shortcut={null}
      onSpotlightClose={onClose}
      scrollable
      maxHeight="min(420px, 60vh)"
      title="Search"
    >
      <Spotlight.Search
        placeholder="Search courses, lessons, the library and the wiki…"
        aria-label="Search courses, lessons, the library and the wiki"
        leftSection={<IconSearch size={20} stroke={1.5} aria-hidden="true" />}
        rightSection={isFetching ? <Loader size="xs" aria-label="Searching" /> : null}
        onKeyDown={(event) => {
          const code = event.nativeEvent.code;
          if (code === 'ArrowDown' || code === 'ArrowUp') chosenByKeys.current = true;
          const enter = event.key === 'Enter' || code === 'NumpadEnter';
          if (enter && !chosenByKeys.current) {
            // Runs before Mantine's own Enter, which then finds nothing chosen to open.
            unchoose();
            seeAll();
          }
        }}
      />
      {/* The list is a ScrollArea (Mantine passes other props on to it): when the results are
          taller than a phone's screen its viewport takes keyboard focus so it can be scrolled
          (axe: scrollable-region-focusable), as the theme does for wide tables. */}
      <Spotlight.ActionsList aria-label="Search results" {...RESULTS_SCROLL_PROPS}>
        {results.map((result) => (
          <Spotlight.Action
            key={`${shown}:${result.type}:${result.id}`}
            onClick={() => void navigate(resultPath(result))}
          >
            <Stack gap={2} w="100%" miw={0}>
              <Group gap="xs" wrap="nowrap" miw={0}>
                <Badge size="xs" variant="light" style={{ flexShrink: 0 }}>
                  {RESULT_KIND[result.type]}
                </Badge>
                <Text fw={600} size="sm" truncate>
                  <HighlightedText value={result.title} />
                </Text>
              </Group>
              {result.courseTitle && (
                <Text size="xs" c="dimmed" truncate>
                  in {result.courseTitle}
                </Text>
              )}
              {result.snippet.text && (
                <Text size="xs" lineClamp={2}>
                  <HighlightedText value={result.snippet} />
                </Text>
              )}
            </Stack>
          </Spotlight.Action>
        ))}
        {results.length === 0 && (
          <Spotlight.Empty>
            {!searchable
              ? 'Type a word to search courses, lessons, the library and the wiki.'
              : isError
                ? searchErrorText(error)
                : isFetching || debounced !== query.trim()
                  ? 'Searching…'
                  : 'Nothing found.'}
          </Spotlight.Empty>
        )}
        {total > 0 && (
          <Spotlight.Action onClick={seeAll}>
            <Text size="sm" fw={600} td="underline">
              See all {total} {total === 1 ? 'result' : 'results'}
            </Text>
          </Spotlight.Action>
        )}
      </Spotlight.ActionsList>
    </Spotlight.Root>
  );
}
