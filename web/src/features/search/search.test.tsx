import type { SearchResult } from '@learning-hub/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MockRequest } from '../../test/fetch-mock';
import { buildUser } from '../../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../../test/render-app';

const course: SearchResult = {
  type: 'course',
  id: 'fusion',
  title: { text: 'Fusion splicing', highlights: [[7, 15]] },
  snippet: { text: 'FO-150 Joining optical fibres with an arc.', highlights: [] },
  courseId: 'fusion',
  lessonId: null,
  courseTitle: null,
  rank: 2,
};
const lesson: SearchResult = {
  type: 'lesson',
  id: 'cleaving',
  title: { text: 'Cleaving', highlights: [] },
  snippet: { text: 'Before splicing, <b>the fibre</b> is cleaved.', highlights: [[7, 15]] },
  courseId: 'fusion',
  lessonId: 'cleaving',
  courseTitle: 'Fusion splicing',
  rank: 1,
};

function searchRoute(total = 2) {
  return (request: MockRequest) => {
    const params = new URLSearchParams(request.search);
    const q = params.get('q') ?? '';
    const page = Number(params.get('page') ?? 1);
    const pageSize = Number(params.get('pageSize') ?? 10);
    const all = q.toLowerCase().startsWith('spli')
      ? Array.from({ length: total }, (_, i) =>
          i % 2 === 0 ? { ...course, id: `c${i}` } : { ...lesson, id: `l${i}`, lessonId: `l${i}` },
        )
      : [];
    const kind = params.get('type');
    const matching = kind ? all.filter((r) => r.type === kind) : all;
    return {
      body: {
        items: matching.slice((page - 1) * pageSize, page * pageSize),
        total: matching.length,
        page,
        pageSize,
      },
    };
  };
}

describe('search', () => {
  it('opens from the header button, searches as one types, highlights, and Enter opens', async () => {
    const fetch = signedInAs(buildUser({ role: 'student' }), { 'GET /api/search': searchRoute() });
    const { user, router } = renderApp('/search');
    await findHeading('Search');

    await user.click(screen.getByRole('button', { name: 'Search (Ctrl+K)' }));
    const dialog = await screen.findByRole('dialog');
    const box = within(dialog).getByRole('textbox', {
      name: 'Search courses, lessons, the library and the wiki',
    });
    await user.type(box, 'splic');
    const [first] = await screen.findAllByRole('button', { name: /^Course Fusion splicing/ });
    expect(within(first!).getByText('splicing', { selector: 'mark' })).toBeInTheDocument();
    // Markup in the text stays text.
    expect(screen.getAllByText(/<b>the fibre<\/b>/).length).toBeGreaterThan(0);
    expect(fetch.callsTo('GET /api/search').at(-1)?.search).toContain('q=splic');
    expect(screen.getByRole('button', { name: 'See all 2 results' })).toBeInTheDocument();

    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/classroom/fusion/lessons/l1'),
    );
  });

  it('opens with Ctrl+K and leads to every result with Enter', async () => {
    signedInAs(buildUser({ role: 'student' }), { 'GET /api/search': searchRoute() });
    const { user, router } = renderApp('/search');
    await findHeading('Search');
    fireEvent.keyDown(document.body, { key: 'k', code: 'KeyK', ctrlKey: true });
    const box = await screen.findByPlaceholderText(
      'Search courses, lessons, the library and the wiki…',
    );
    await user.type(box, 'splicing');
    await screen.findAllByRole('button', { name: /^Course Fusion splicing/ });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.search).toBe('?q=splicing'));
    expect(router.state.location.pathname).toBe('/search');
  });

  it('shows every result on the results page, with kinds and pages', async () => {
    signedInAs(buildUser({ role: 'student' }), { 'GET /api/search': searchRoute(25) });
    const { user, router } = renderApp('/search?q=splicing');
    await findHeading('Search');
    expect(await screen.findByText('25 results for “splicing”')).toBeInTheDocument();
    const links = screen.getAllByRole('link', { name: /Fusion splicing|Cleaving/ });
    expect(links).toHaveLength(20);
    expect(links[1]).toHaveAttribute('href', '/classroom/fusion/lessons/l1');
    expect(screen.getAllByText('splicing', { selector: 'mark' }).length).toBeGreaterThan(0);

    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() =>
      expect(screen.getAllByRole('link', { name: /Fusion|Cleaving/ })).toHaveLength(5),
    );
    expect(router.state.location.search).toContain('page=2');

    await user.click(screen.getByText('Lessons'));
    expect(await screen.findByText('12 results for “splicing”')).toBeInTheDocument();

    // The wiki has a kind of its own.
    await user.click(screen.getByText('Wiki'));
    expect(await screen.findByText('Nothing found for “splicing”.')).toBeInTheDocument();
    expect(new URLSearchParams(router.state.location.search).get('type')).toBe('wiki-page');
    await user.click(screen.getByText('Lessons'));
    expect(await screen.findByText('12 results for “splicing”')).toBeInTheDocument();

    const input = () =>
      screen.getByRole('textbox', { name: 'Search courses, lessons, the library and the wiki' });
    await user.clear(input());
    await user.type(input(), '"*{Enter}');
    expect(
      await screen.findByText('Type a word to search courses, lessons, the library and the wiki.'),
    ).toBeInTheDocument();
    await user.clear(input());
    await user.type(input(), 'nothing{Enter}');
    expect(await screen.findByText('Nothing found for “nothing”.')).toBeInTheDocument();
  });

  it('says when to try again when the server refuses a search for the person’s share', async () => {
    const message = '2 searches of yours are still running. Try again in a moment.';
    signedInAs(buildUser({ role: 'student' }), {
      'GET /api/search': { status: 429, body: { code: 'RATE_LIMITED', message } },
    });
    renderApp('/search?q=splicing');
    await findHeading('Search');
    expect(await screen.findByText(message)).toBeInTheDocument();
  });
});
