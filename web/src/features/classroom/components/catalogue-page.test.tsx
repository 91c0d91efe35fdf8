import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildCourseCard } from '../../../test/classroom-fixtures';
import type { MockRequest } from '../../../test/fetch-mock';
import { buildUser, listOf } from '../../../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../../../test/render-app';

const student = buildUser({ role: 'student' });
const instructor = buildUser({ role: 'instructor' });

const departments = {
  ...listOf([
    {
      id: 'network-engineering',
      name: 'Network Engineering',
      description: '',
      memberCount: 3,
      revision: 1,
    },
  ]),
};

function catalogue(request: MockRequest) {
  const params = new URLSearchParams(request.search);
  const courses =
    params.get('search') === 'nothing'
      ? []
      : params.get('scope') === 'mine'
        ? [
            buildCourseCard({
              id: 'c-2',
              code: 'SPL-201',
              title: 'Fusion splicing',
              enrolled: true,
              progress: { completedLessons: 1, totalLessons: 4, percent: 25 },
            }),
          ]
        : [
            buildCourseCard(),
            buildCourseCard({
              id: 'c-2',
              code: 'SPL-201',
              title: 'Fusion splicing',
              enrolled: true,
              progress: { completedLessons: 1, totalLessons: 4, percent: 25 },
            }),
          ];
  return { body: { items: courses, total: courses.length, page: 1, pageSize: 12 } };
}

const lastQuery = (fetch: { callsTo(key: string): MockRequest[] }) =>
  new URLSearchParams(fetch.callsTo('GET /api/courses').at(-1)?.search ?? '');

describe('catalogue', () => {
  it('lists courses as cards with code, summary, department, enrolment and progress', async () => {
    signedInAs(student, {
      'GET /api/courses': catalogue,
      'GET /api/departments': { body: departments },
    });
    renderApp('/classroom');
    await findHeading('Courses');
    const list = await screen.findByRole('list', { name: 'Courses' });
    const cards = within(list).getAllByRole('article');
    expect(cards).toHaveLength(2);
    expect(
      within(cards[0]!).getByRole('link', { name: 'Fibre testing with an OTDR' }),
    ).toHaveAttribute('href', '/classroom/course-1');
    expect(within(cards[0]!).getByText('OTDR-101')).toBeInTheDocument();
    expect(within(cards[0]!).getByText('Reading traces, finding faults.')).toBeInTheDocument();
    expect(within(cards[0]!).getByText('Network Engineering')).toBeInTheDocument();
    expect(within(cards[0]!).queryByText('Enrolled')).not.toBeInTheDocument();
    expect(within(cards[1]!).getByText('Enrolled')).toBeInTheDocument();
    expect(
      within(cards[1]!).getByRole('progressbar', { name: 'Progress in Fusion splicing' }),
    ).toBeInTheDocument();
    expect(within(cards[1]!).getByText('25% · 1 of 4 lessons complete')).toBeInTheDocument();
    // A student neither creates courses nor sees drafts.
    expect(screen.queryByRole('link', { name: 'Create course' })).not.toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'State' })).not.toBeInTheDocument();
  });

  it('searches on the server (debounced), filters by department and shows my courses', async () => {
    const fetch = signedInAs(student, {
      'GET /api/courses': catalogue,
      'GET /api/departments': { body: departments },
    });
    const { user, router } = renderApp('/classroom');
    await screen.findByRole('list', { name: 'Courses' });
    expect(lastQuery(fetch).get('state')).toBe('published');
    expect(lastQuery(fetch).get('scope')).toBe('all');

    await user.type(screen.getByRole('textbox', { name: 'Search' }), 'splice');
    await waitFor(() => expect(lastQuery(fetch).get('search')).toBe('splice'));
    // One request for the whole word, not one per key.
    const searched = fetch
      .callsTo('GET /api/courses')
      .map((c) => new URLSearchParams(c.search).get('search'))
      .filter((v) => v !== null);
    expect(searched).toEqual(['splice']);
    expect(router.state.location.search).toContain('q=splice');

    await user.click(screen.getByRole('combobox', { name: 'Department' }));
    await user.click(await screen.findByRole('option', { name: 'Network Engineering' }));
    await waitFor(() => expect(lastQuery(fetch).get('departmentId')).toBe('network-engineering'));

    await user.click(screen.getByRole('radio', { name: 'My courses' }));
    await waitFor(() => expect(lastQuery(fetch).get('scope')).toBe('mine'));
  });

  it('says when nothing matches, and offers the whole catalogue from an empty "my courses"', async () => {
    const fetch = signedInAs(student, {
      'GET /api/courses': (request) =>
        new URLSearchParams(request.search).get('scope') === 'mine'
          ? { body: { items: [], total: 0, page: 1, pageSize: 12 } }
          : catalogue(request),
      'GET /api/departments': { body: departments },
    });
    const { user } = renderApp('/classroom?q=nothing');
    expect(await screen.findByText('No courses match these filters.')).toBeInTheDocument();

    await user.clear(screen.getByRole('textbox', { name: 'Search' }));
    await user.click(screen.getByRole('radio', { name: 'My courses' }));
    expect(
      await screen.findByText('You are not taking or teaching any course yet.'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Browse all courses' }));
    await waitFor(() => expect(lastQuery(fetch).get('scope')).toBe('all'));
    expect(await screen.findByRole('list', { name: 'Courses' })).toBeInTheDocument();
  });

  it('lets an instructor create a course and list drafts', async () => {
    const fetch = signedInAs(instructor, {
      'GET /api/courses': catalogue,
      'GET /api/departments': { body: departments },
    });
    const { user } = renderApp('/classroom');
    await screen.findByRole('list', { name: 'Courses' });
    expect(screen.getByRole('link', { name: 'Create course' })).toHaveAttribute(
      'href',
      '/course/create',
    );
    await user.click(screen.getByRole('combobox', { name: 'State' }));
    await user.click(await screen.findByRole('option', { name: 'Drafts' }));
    await waitFor(() => expect(lastQuery(fetch).get('state')).toBe('draft'));
  });

  it('offers no department filter to someone who may see no department', async () => {
    const fetch = signedInAs(buildUser({ role: 'student', department: null, departmentId: null }), {
      'GET /api/courses': catalogue,
    });
    renderApp('/classroom');
    await screen.findByRole('list', { name: 'Courses' });
    expect(screen.queryByRole('combobox', { name: 'Department' })).not.toBeInTheDocument();
    expect(fetch.callsTo('GET /api/departments')).toHaveLength(0);
  });

  it("shows the server's message when the catalogue cannot be loaded", async () => {
    signedInAs(student, {
      'GET /api/courses': {
        status: 400,
        body: { code: 'VALIDATION_ERROR', message: 'Search is too long' },
      },
    });
    renderApp('/classroom');
    expect(await screen.findByRole('alert')).toHaveTextContent('Search is too long');
  });
});
