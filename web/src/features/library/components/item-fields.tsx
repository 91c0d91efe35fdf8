/**
 * The fields an item's upload, link and edit dialogs share: who sees it (scope), its category and
 * its tags. The scope's department comes from GET /api/departments and the course from the
 * courses the user takes or teaches (GET /api/courses?scope=mine); the server decides whether
 * the user may put an item there.
 */
import {
  LIBRARY_TAG_MAX,
  LIBRARY_TAGS_MAX,
  type LibraryCategory,
  type LibraryScope,
} from '@learning-hub/core';
import { Select, SimpleGrid, Stack, TagsInput } from '@mantine/core';
import { useCan } from '../../../lib/auth/use-can';
import { useCatalogue } from '../../classroom/api/courses-api';
import { useDepartmentChoices } from '../../departments/api/departments-api';
import { useLibraryCategories } from '../api/library-api';

export interface ItemFieldValues {
  scopeType: LibraryScope['type'];
  departmentId: string | null;
  courseId: string | null;
  categoryId: string | null;
  tags: string[];
}

export const EMPTY_FIELDS: ItemFieldValues = {
  scopeType: 'everyone',
  departmentId: null,
  courseId: null,
  categoryId: null,
  tags: [],
};

export interface ItemFieldErrors {
  scope?: string | undefined;
  tags?: string | undefined;
}

/** The complaints of the add-link and edit forms: the title and address, and these fields'. */
export interface ItemFormErrors extends ItemFieldErrors {
  title?: string | undefined;
  url?: string | undefined;
}

/** The values of an item as it is (for the edit dialog). */
export function fieldsOf(item: {
  scope: LibraryScope;
  category: { id: string } | null;
  tags: string[];
}): ItemFieldValues {
  return {
    scopeType: item.scope.type,
    departmentId: item.scope.type === 'department' ? item.scope.departmentId : null,
    courseId: item.scope.type === 'course' ? item.scope.courseId : null,
    categoryId: item.category?.id ?? null,
    tags: item.tags,
  };
}

/** The scope the values name, or the message of what is missing. */
export function scopeOf(values: ItemFieldValues): LibraryScope | string {
  if (values.scopeType === 'department') {
    return values.departmentId
      ? { type: 'department', departmentId: values.departmentId }
      : 'Choose the department';
  }
  if (values.scopeType === 'course') {
    return values.courseId ? { type: 'course', courseId: values.courseId } : 'Choose the course';
  }
  return { type: 'everyone' };
}

/** Checks the tags as the server will (length, count). */
export function tagsError(tags: readonly string[]): string | undefined {
  if (tags.length > LIBRARY_TAGS_MAX) return `At most ${LIBRARY_TAGS_MAX} tags`;
  if (tags.some((t) => t.trim().length > LIBRARY_TAG_MAX)) {
    return `A tag has at most ${LIBRARY_TAG_MAX} characters`;
  }
  return undefined;
}

export function categoryOptions(categories: readonly LibraryCategory[] | undefined) {
  return (categories ?? []).map((c) => ({ value: c.id, label: c.name }));
}

export function ItemFields({
  values,
  onChange,
  errors = {},
  disabled,
  currentScopeLabel,
}: {
  values: ItemFieldValues;
  onChange(values: ItemFieldValues): void;
  errors?: ItemFieldErrors;
  disabled?: boolean;
  /** The name of the item's department or course now (it may not be among the options). */
  currentScopeLabel?: string | null;
}) {
  const can = useCan();
  const categories = useLibraryCategories();
  const mayListDepartments = can.permission('department.view', { scope: 'any' });
  const departments = useDepartmentChoices(values.scopeType === 'department' && mayListDepartments);
  const courses = useCatalogue(
    { scope: 'mine', state: 'any', pageSize: 100 },
    values.scopeType === 'course',
  );
  const set = (changes: Partial<ItemFieldValues>) => onChange({ ...values, ...changes });

  const departmentOptions = (departments.data ?? []).map((d) => ({ value: d.id, label: d.name }));
  const courseOptions = (courses.data?.items ?? []).map((c) => ({
    value: c.id,
    label: `${c.code} · ${c.title}`,
  }));
  const keepCurrent = (options: { value: string; label: string }[], id: string | null) => {
    if (id && !options.some((o) => o.value === id)) {
      options.unshift({ value: id, label: currentScopeLabel ?? id });
    }
    return options;
  };

  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <Select
          label="Who can see it"
          data={[
            { value: 'everyone', label: 'Everyone who uses the library' },
            { value: 'department', label: 'A department' },
            { value: 'course', label: 'A course' },
          ]}
          value={values.scopeType}
          allowDeselect={false}
          disabled={disabled}
          onChange={(value) => set({ scopeType: (value ?? 'everyone') as LibraryScope['type'] })}
        />
        {values.scopeType === 'department' && (
          <Select
            label="Department"
            placeholder={departments.isPending ? 'Loading…' : 'Choose a department'}
            searchable
            required
            disabled={disabled}
            data={keepCurrent(departmentOptions, values.departmentId)}
            value={values.departmentId}
            onChange={(value) => set({ departmentId: value })}
            error={errors.scope}
            nothingFoundMessage="No departments"
          />
        )}
        {values.scopeType === 'course' && (
          <Select
            label="Course"
            placeholder={courses.isPending ? 'Loading…' : 'Choose a course'}
            searchable
            required
            disabled={disabled}
            data={keepCurrent(courseOptions, values.courseId)}
            value={values.courseId}
            onChange={(value) => set({ courseId: value })}
            error={errors.scope}
            nothingFoundMessage="You take or teach no courses"
          />
        )}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <Select
          label="Category"
          placeholder="No category"
          clearable
          searchable
          disabled={disabled}
          data={categoryOptions(categories.data)}
          value={values.categoryId}
          onChange={(value) => set({ categoryId: value })}
        />
        <TagsInput
          label="Tags"
          description="Press Enter after each tag"
          disabled={disabled}
          value={values.tags}
          onChange={(tags) => set({ tags })}
          maxTags={LIBRARY_TAGS_MAX}
          splitChars={[',']}
          error={errors.tags}
        />
      </SimpleGrid>
    </Stack>
  );
}
