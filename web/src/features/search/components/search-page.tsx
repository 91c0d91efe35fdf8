/**
 * /search?q=&type=&page=: every result of a query, paged (docs/search.md). The header's
 * spotlight leads here with "See all results"; the query, the kind and the page are kept in the
 * URL.
 */
import { SEARCH_QUERY_MAX, SEARCH_TYPES, type SearchType } from '@learning-hub/core';
import {
  Alert,
  Anchor,
  Badge,
  Group,
  Loader,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { HighlightedText } from '../../../components/highlighted-text';
import { Pager } from '../../../components/pager';
import { useFilterParams } from '../../../lib/use-filter-params';
import {
  hasSearchTerms,
  RESULT_KIND,
  resultPath,
  searchErrorText,
  useSearch,
} from '../api/search-api';

const PAGE_SIZE = 20;
const KINDS = [
  { value: 'all', label: 'All' },
  { value: 'course', label: 'Courses' },
  { value: 'lesson', label: 'Lessons' },
  { value: 'library-item', label: 'Library' },
  { value: 'wiki-page', label: 'Wiki' },
];

export function SearchPage() {
  const filters = useFilterParams();
  const q = (filters.get('q') ?? '').slice(0, SEARCH_QUERY_MAX);
  const typeParam = filters.get('type');
  const type = SEARCH_TYPES.find((t): t is SearchType => t === typeParam);
  const { data, isFetching, isError, error } = useSearch({
    q,
    type,
    page: filters.page,
    pageSize: PAGE_SIZE,
  });
  const searchable = hasSearchTerms(q);
  const results = searchable ? (data?.items ?? []) : [];

  return (
    <Stack gap="md" maw={800}>
      <Title order={1}>Search</Title>
      {/* Keyed by the query, so Back and links show the query they searched. */}
      <SearchForm
        key={q}
        initial={q}
        busy={isFetching}
        onSearch={(t) => filters.set({ q: t || null })}
      />
      <SegmentedControl
        aria-label="Kind of result"
        data={KINDS}
        value={type ?? 'all'}
        onChange={(value) => filters.set({ type: value === 'all' ? null : value })}
        w="fit-content"
      />
      {isError && (
        <Alert color="red" title="Search failed">
          {searchErrorText(error)}
        </Alert>
      )}
      {!searchable ? (
        <Text c="dimmed">Type a word to search courses, lessons, the library and the wiki.</Text>
      ) : data && !isError ? (
        <Text c="dimmed" aria-live="polite">
          {data.total === 0
            ? `Nothing found for “${q}”.`
            : `${data.total} ${data.total === 1 ? 'result' : 'results'} for “${q}”`}
        </Text>
      ) : null}
      {results.length > 0 && (
        <Stack component="ol" gap="md" p={0} m={0} style={{ listStyle: 'none' }}>
          {results.map((result) => (
            <li key={`${result.type}:${result.id}`}>
              <Stack gap={2}>
                <Group gap="xs" wrap="nowrap" miw={0}>
                  <Badge size="sm" variant="light" style={{ flexShrink: 0 }}>
                    {RESULT_KIND[result.type]}
                  </Badge>
                  <Anchor component={Link} to={resultPath(result)} fw={600}>
                    <HighlightedText value={result.title} />
                  </Anchor>
                </Group>
                {result.courseTitle && (
                  <Text size="sm" c="dimmed">
                    in {result.courseTitle}
                  </Text>
                )}
                {result.snippet.text && (
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    <HighlightedText value={result.snippet} />
                  </Text>
                )}
              </Stack>
            </li>
          ))}
        </Stack>
      )}
      {data && searchable && (
        <Pager
          label="Search results pages"
          page={filters.page}
          total={data.total}
          pageSize={PAGE_SIZE}
          onChange={filters.setPage}
        />
      )}
    </Stack>
  );
}

function SearchForm({
  initial,
  busy,
  onSearch,
}: {
  initial: string;
  busy: boolean;
  onSearch(text: string): void;
}) {
  const [text, setText] = useState(initial);
  return (
    <form
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(text.trim());
      }}
    >
      <TextInput
        label="Search courses, lessons, the library and the wiki"
        value={text}
        maxLength={SEARCH_QUERY_MAX}
        onChange={(event) => setText(event.currentTarget.value)}
        leftSection={<IconSearch size={18} aria-hidden="true" />}
        rightSection={busy ? <Loader size="xs" aria-label="Searching" /> : null}
      />
    </form>
  );
}
