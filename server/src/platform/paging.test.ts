import { describe, expect, it } from 'vitest';
import { lastPage, linkHeader, pageWindow, slicePage } from './paging';

describe('paging', () => {
  it('turns a page into an offset and a limit', () => {
    expect(pageWindow({ page: 1, pageSize: 25 })).toEqual({ offset: 0, limit: 25 });
    expect(pageWindow({ page: 3, pageSize: 10 })).toEqual({ offset: 20, limit: 10 });
  });

  it('slices a list read whole, and says how many there are', () => {
    const all = ['a', 'b', 'c', 'd', 'e'];
    expect(slicePage(all, { page: 2, pageSize: 2 })).toEqual({
      items: ['c', 'd'],
      total: 5,
      page: 2,
      pageSize: 2,
    });
    expect(slicePage(all, { page: 9, pageSize: 2 }).items).toEqual([]);
  });

  it('counts an empty list as one page', () => {
    expect(lastPage(0, 25)).toBe(1);
    expect(lastPage(50, 25)).toBe(2);
    expect(lastPage(51, 25)).toBe(3);
  });

  it('links first, prev, next and last, keeping the other query parameters', () => {
    expect(linkHeader('/api/courses?search=fibre&page=2&pageSize=10', 2, 10, 35)).toBe(
      '</api/courses?search=fibre&page=1&pageSize=10>; rel="first", ' +
        '</api/courses?search=fibre&page=1&pageSize=10>; rel="prev", ' +
        '</api/courses?search=fibre&page=3&pageSize=10>; rel="next", ' +
        '</api/courses?search=fibre&page=4&pageSize=10>; rel="last"',
    );
  });

  it('has no prev on the first page and no next on the last', () => {
    expect(linkHeader('/api/x', 1, 25, 0)).toBe(
      '</api/x?page=1&pageSize=25>; rel="first", </api/x?page=1&pageSize=25>; rel="last"',
    );
    // Past the end: prev leads back to the last page.
    expect(linkHeader('/api/x?page=9', 9, 25, 30)).toBe(
      '</api/x?page=1&pageSize=25>; rel="first", </api/x?page=2&pageSize=25>; rel="prev", ' +
        '</api/x?page=2&pageSize=25>; rel="last"',
    );
  });
});
