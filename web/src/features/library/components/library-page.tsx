/**
 * /library: the items the user may see, with search, filters (kind, category, tag, scope,
 * "Added by me"), sort and server paging, all kept in the URL; `?trash=true` shows the trash
 * instead (what the user may restore; the server decides). Uploading, links, the trash and
 * categories are offered by what the list says the user may do (`canUpload`, `canManage`).
 */
import { LIBRARY_ITEM_KINDS, type LibraryItemSummary, type LibraryList } from '@learning-hub/core';
import {
  Box,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  IconArrowLeft,
  IconCategory,
  IconLink,
  IconNotebook,
  IconSearch,
  IconTrash,
  IconUpload,
} from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { DataList, type DataListColumn } from '../../../components/data-list';
import { Pager } from '../../../components/pager';
import { PhoneFilters } from '../../../components/phone-filters';
import { useCan } from '../../../lib/auth/use-can';
import { useCatalogue } from '../../classroom/api/courses-api';
import { DepartmentFilter } from '../../departments/components/department-filter';
import { formatBytes, formatDateTime, countText } from '../../../lib/format';
import { useFilterParams, useTypedFilter } from '../../../lib/use-filter-params';
import { LIBRARY_PAGE_SIZE, useLibraryCategories, useLibraryList } from '../api/library-api';
import { CategoriesDialog } from './categories-dialog';
import { categoryOptions } from './item-fields';
import { KIND_LABELS, KindIcon, scopeText } from './library-format';
import { LinkDialog } from './link-dialog';
import { TrashActions, TrashRowActions } from './trash-actions';
import { UploadDialog } from './upload-dialog';
import { QueryState } from '../../../components/query-state';
import { href } from '../../../lib/links';

const SORTS = [
  { value: 'updated', label: 'Recently updated' },
  { value: 'created', label: 'Recently added' },
  { value: 'title', label: 'Title (A–Z)' },
  { value: 'views', label: 'Most viewed' },
  { value: 'downloads', label: 'Most downloaded' },
] as const;
/** The order each sort reads best in (the server's default order for it). */
const SORT_ORDER: Record<string, 'asc' | 'desc'> = {
  updated: 'desc',
  created: 'desc',
  title: 'asc',
  views: 'desc',
  downloads: 'desc',
};

const SCOPES = [
  { value: 'everyone', label: 'Everyone' },
  { value: 'department', label: 'Departments' },
  { value: 'course', label: 'Courses' },
];

type Dialog = 'upload' | 'link' | 'categories' | null;

export function LibraryPage() {
  const filters = useFilterParams();
  const trash = filters.get('trash') === 'true';
  const search = filters.get('search') ?? '';
  const kindParam = filters.get('kind');
  const kind = LIBRARY_ITEM_KINDS.find((k) => k === kindParam) ?? null;
  const categoryId = filters.get('category');
  const tag = filters.get('tag');
  const scopeParam = filters.get('scope');
  const scope = SCOPES.some((s) => s.value === scopeParam) ? scopeParam : null;
  const departmentId = scope === 'department' ? filters.get('department') : null;
  const courseId = scope === 'course' ? filters.get('course') : null;
  const mine = filters.get('mine') === 'true';
  const sortParam = filters.get('sort');
  const sort = SORTS.find((s) => s.value === sortParam)?.value ?? 'updated';
  const page = filters.page;

  const typedSearch = useTypedFilter(filters, 'search');
  const typedTag = useTypedFilter(filters, 'tag');
  const [dialog, setDialog] = useState<Dialog>(null);

  const list = useLibraryList({
    page,
    pageSize: LIBRARY_PAGE_SIZE,
    kind,
    categoryId,
    tag,
    scope,
    departmentId,
    courseId,
    mine,
    trash,
    search: search || null,
    sort,
    order: SORT_ORDER[sort] ?? null,
  });
  const categories = useLibraryCategories();
  const data = list.data;
  const filtered = !!(search || kind || categoryId || tag || scope || mine);
  const can = useCan();
  const courses = useCatalogue({ scope: 'mine', state: 'any', pageSize: 100 }, scope === 'course');

  // On a phone the filters wait behind one button (PhoneFilters).
  const activeFilters = [
    kind,
    categoryId,
    tag,
    scope,
    mine || null,
    sort === 'updated' ? null : sort,
  ].filter(Boolean).length;
  const searchField = (
    <TextInput
      label="Search"
      placeholder="Title, description, tags or text"
      leftSection={<IconSearch size={16} aria-hidden="true" />}
      {...typedSearch.field}
    />
  );

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <Title order={1}>{trash ? 'Library trash' : 'Library'}</Title>
        {data && (
          <Group gap="xs" wrap="wrap">
            {trash ? (
              <>
                <Button
                  variant="default"
                  leftSection={<IconArrowLeft size={16} aria-hidden />}
                  onClick={() => filters.set({ trash: null })}
                >
                  Back to the library
                </Button>
                {data.canManage && <TrashActions empty={data.total === 0} />}
              </>
            ) : (
              <>
                {/* The wiki has no menu item of its own (spec §2's menu); it opens with the library. */}
                <Button
                  component={Link}
                  to="/wiki"
                  variant="default"
                  leftSection={<IconNotebook size={16} aria-hidden />}
                >
                  Wiki
                </Button>
                {data.canUpload && (
                  <>
                    <Button
                      leftSection={<IconUpload size={16} aria-hidden />}
                      onClick={() => setDialog('upload')}
                    >
                      Upload files
                    </Button>
                    <Button
                      variant="light"
                      leftSection={<IconLink size={16} aria-hidden />}
                      onClick={() => setDialog('link')}
                    >
                      Add link
                    </Button>
                  </>
                )}
                {data.canManage && (
                  <Button
                    variant="default"
                    leftSection={<IconCategory size={16} aria-hidden />}
                    onClick={() => setDialog('categories')}
                  >
                    Categories
                  </Button>
                )}
                {(data.canUpload || data.canManage) && (
                  <Button
                    variant="default"
                    leftSection={<IconTrash size={16} aria-hidden />}
                    onClick={() => filters.set({ trash: 'true' })}
                  >
                    Trash
                  </Button>
                )}
              </>
            )}
          </Group>
        )}
      </Group>
      {trash && (
        <Text size="sm" c="dimmed">
          Items moved to the trash that you may restore. Restoring puts an item back where it was.
        </Text>
      )}
      <PhoneFilters search={searchField} active={activeFilters}>
        <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }} spacing="sm">
          <Select
            label="Type"
            placeholder="Any type"
            clearable
            data={LIBRARY_ITEM_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] }))}
            value={kind}
            onChange={(value) => filters.set({ kind: value })}
          />
          <Select
            label="Category"
            placeholder="Any category"
            clearable
            searchable
            data={categoryOptions(categories.data)}
            value={categoryId}
            onChange={(value) => filters.set({ category: value })}
          />
          <TextInput label="Tag" placeholder="Any tag" {...typedTag.field} />
          <Select
            label="Shared with"
            placeholder="Anyone"
            clearable
            data={SCOPES}
            value={scope}
            onChange={(value) => filters.set({ scope: value, department: null, course: null })}
          />
          {scope === 'department' && (
            <DepartmentFilter
              // GET /api/departments needs department.view somewhere: else nothing to pick.
              enabled={can.permission('department.view', { scope: 'any' })}
              value={departmentId}
              onChange={(value) => filters.set({ department: value })}
            />
          )}
          {scope === 'course' && (
            <Select
              label="Course"
              placeholder="Any course"
              clearable
              searchable
              data={(courses.data?.items ?? []).map((c) => ({
                value: c.id,
                label: `${c.code} · ${c.title}`,
              }))}
              value={courseId}
              onChange={(value) => filters.set({ course: value })}
            />
          )}
          <Select
            label="Sort by"
            data={SORTS.map((s) => ({ ...s }))}
            value={sort}
            allowDeselect={false}
            onChange={(value) => filters.set({ sort: value === 'updated' ? null : value })}
          />
        </SimpleGrid>
        {!trash && (
          <Checkbox
            label="Added by me"
            checked={mine}
            onChange={(event) => filters.set({ mine: event.currentTarget.checked ? 'true' : null })}
          />
        )}
      </PhoneFilters>
      <QueryState query={list} label="Loading the library" />
      {data && (
        <>
          <Group justify="space-between">
            <Text size="sm" c="dimmed" aria-live="polite">
              {countText(data.total, 'item', 'items')}
            </Text>
            {list.isFetching && <Loader size="xs" aria-label="Updating" />}
          </Group>
          {data.items.length === 0 ? (
            <EmptyLibrary
              data={data}
              trash={trash}
              filtered={filtered}
              onClear={() => {
                typedSearch.clear();
                typedTag.clear();
                filters.set({
                  search: null,
                  kind: null,
                  category: null,
                  tag: null,
                  scope: null,
                  department: null,
                  course: null,
                  mine: null,
                });
              }}
              onUpload={() => setDialog('upload')}
            />
          ) : (
            <ItemList items={data.items} trash={trash} canManage={data.canManage} />
          )}
          <Pager
            label="Library pages"
            page={page}
            total={data.total}
            pageSize={data.pageSize}
            onChange={filters.setPage}
          />
        </>
      )}
      {data?.canUpload && (
        <>
          <UploadDialog opened={dialog === 'upload'} onClose={() => setDialog(null)} />
          <LinkDialog opened={dialog === 'link'} onClose={() => setDialog(null)} />
        </>
      )}
      {data?.canManage && (
        <CategoriesDialog opened={dialog === 'categories'} onClose={() => setDialog(null)} />
      )}
    </Stack>
  );
}

function EmptyLibrary({
  data,
  trash,
  filtered,
  onClear,
  onUpload,
}: {
  data: LibraryList;
  trash: boolean;
  filtered: boolean;
  onClear(): void;
  onUpload(): void;
}) {
  if (filtered) {
    return (
      <Stack align="center" gap="xs" py="xl">
        <Text c="dimmed">No items match these filters.</Text>
        <Button variant="light" onClick={onClear}>
          Clear the filters
        </Button>
      </Stack>
    );
  }
  if (trash) {
    return (
      <Text c="dimmed" ta="center" py="xl">
        The trash is empty.
      </Text>
    );
  }
  return (
    <Stack align="center" gap="xs" py="xl">
      <Text c="dimmed" ta="center">
        {data.canUpload
          ? 'The library is empty. Upload documents, videos, audio or images, or add a link, to share them.'
          : 'There is nothing in the library for you yet. Items shared with everyone, your departments or your courses will show here.'}
      </Text>
      {data.canUpload && (
        <Button variant="light" onClick={onUpload}>
          Upload the first files
        </Button>
      )}
    </Stack>
  );
}

const ITEM_COLUMNS = (trash: boolean): DataListColumn<LibraryItemSummary>[] => [
  {
    header: 'Title',
    card: 'title',
    cell: (item) => (
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ItemPicture item={item} />
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Anchor component={Link} to={href('libraryItem', { itemId: item.id })} fw={500}>
            {item.title}
          </Anchor>
          {item.tags.length > 0 && (
            <Group gap={4}>
              {item.tags.map((t) => (
                <Badge key={t} variant="light" size="sm" tt="none">
                  {t}
                </Badge>
              ))}
            </Group>
          )}
        </Stack>
      </Group>
    ),
  },
  {
    header: trash ? 'Deleted' : 'Updated',
    cell: (item) => formatDateTime(trash ? item.deletedAt : item.updatedAt),
  },
  { header: 'Shared with', cell: scopeText },
  { header: 'Category', cell: (item) => item.category?.name ?? '—' },
  {
    header: 'Size',
    cell: (item) => (item.file ? formatBytes(item.file.size) : '—'),
    cardCell: (item) => (item.file ? formatBytes(item.file.size) : ''),
    card: 'meta',
  },
  {
    header: 'Views',
    cell: (item) => item.viewCount,
    cardCell: (item) => countText(item.viewCount, 'view', 'views'),
    card: 'meta',
  },
  {
    header: 'Downloads',
    cell: (item) => (item.file ? item.downloadCount : '—'),
    cardCell: (item) => (item.file ? countText(item.downloadCount, 'download', 'downloads') : ''),
    card: 'meta',
  },
];

function ItemList({
  items,
  trash,
  canManage,
}: {
  items: LibraryItemSummary[];
  trash: boolean;
  canManage: boolean;
}) {
  return (
    <DataList
      label={trash ? 'Items in the trash' : 'Library items'}
      rows={items}
      rowKey={(item) => item.id}
      columns={ITEM_COLUMNS(trash)}
      minWidth={760}
      actions={trash ? (item) => <TrashRowActions item={item} canPurge={canManage} /> : undefined}
    />
  );
}

/**
 * A row's picture: the thumbnail of an image or of a PDF's first page (signed for the session),
 * else the kind's icon in a box of the same size, so titles line up.
 */
function ItemPicture({ item }: { item: LibraryItemSummary }) {
  const src = item.file?.thumbnailUrl;
  return (
    <Box
      w={48}
      h={48}
      style={{
        flexShrink: 0,
        display: 'grid',
        placeItems: 'center',
        borderRadius: 'var(--mantine-radius-sm)',
        background: 'var(--mantine-color-default-hover)',
        overflow: 'hidden',
      }}
    >
      {src ? (
        <img
          src={src}
          alt=""
          width={48}
          height={48}
          style={{ objectFit: 'cover' }}
          loading="lazy"
        />
      ) : (
        <KindIcon kind={item.kind} size={24} />
      )}
    </Box>
  );
}
