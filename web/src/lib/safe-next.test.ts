import { describe, expect, it } from 'vitest';
import { loginPathFor, safeNextPath } from './safe-next';

describe('safeNextPath', () => {
  const origin = 'https://hub.example.com';

  it('keeps same-origin relative paths with their search and hash', () => {
    expect(safeNextPath('/library?q=fiber#top', origin)).toBe('/library?q=fiber#top');
    expect(safeNextPath('/departments/network-engineering', origin)).toBe(
      '/departments/network-engineering',
    );
  });

  it.each([
    null,
    '',
    'library',
    'https://evil.example.com/',
    '//evil.example.com/x',
    '/\\evil.example.com',
    '/\t/evil.example.com',
    'javascript:alert(1)',
    '/login?next=/x',
    '/learning/logout',
  ])('turns %j into /', (raw) => {
    expect(safeNextPath(raw, origin)).toBe('/');
  });

  it('builds the login path with the page encoded', () => {
    expect(loginPathFor('/library', '?q=a b')).toBe('/login?next=%2Flibrary%3Fq%3Da%20b');
  });
});
