import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock';
import { listOf } from '../../../test/fixtures';
import {
  useCreateDepartment,
  useDepartmentChoices,
  useDepartments,
  useUpdateDepartment,
} from './departments-api';

const dept = (id: string, name: string) => ({
  id,
  slug: id,
  name,
  description: '',
  memberCount: 0,
  managers: [],
  archivedAt: null,
  revision: 1,
});

function setUp() {
  let departments = [dept('north', 'North')];
  const fetch = mockFetch({
    'GET /api/departments': () => ({ body: listOf(departments) }),
    'POST /api/departments': (request) => {
      const created = dept('south', (request.body as { name: string }).name);
      departments = [...departments, created];
      return { status: 201, body: created };
    },
    'PATCH /api/departments/north': (request) => {
      const renamed = { ...dept('north', (request.body as { name: string }).name) };
      departments = departments.map((d) => (d.id === 'north' ? renamed : d));
      return { body: renamed };
    },
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  // A picker elsewhere in the app (admin, course creator, library) and the departments page.
  const view = renderHook(
    () => ({
      choices: useDepartmentChoices(),
      page: useDepartments(false),
      create: useCreateDepartment(),
      update: useUpdateDepartment('north'),
    }),
    { wrapper },
  );
  return { fetch, view };
}

describe('GET /api/departments has one cache entry', () => {
  it('is asked once for the page and every picker', async () => {
    const { fetch, view } = setUp();
    await waitFor(() => expect(view.result.current.choices.data).toHaveLength(1));
    expect(view.result.current.page.data).toHaveLength(1);
    expect(fetch.callsTo('GET /api/departments')).toHaveLength(1);
  });

  it('a new department shows in the pickers at once', async () => {
    const { view } = setUp();
    await waitFor(() => expect(view.result.current.choices.data).toHaveLength(1));
    await act(() => view.result.current.create.mutateAsync({ name: 'South', description: '' }));
    await waitFor(() =>
      expect(view.result.current.choices.data?.map((d) => d.name)).toEqual(['North', 'South']),
    );
  });

  it('a renamed department shows its new name in the pickers', async () => {
    const { view } = setUp();
    await waitFor(() => expect(view.result.current.choices.data).toHaveLength(1));
    await act(() => view.result.current.update.mutateAsync({ name: 'North Region', revision: 1 }));
    await waitFor(() =>
      expect(view.result.current.choices.data?.map((d) => d.name)).toEqual(['North Region']),
    );
  });
});
