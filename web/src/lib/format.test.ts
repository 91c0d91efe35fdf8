import { describe, expect, it } from 'vitest';
import { formatBytes, formatDateTime, fullName, initials } from './format';

describe('format', () => {
  it('takes the first letter of first and last name as initials', () => {
    expect(initials({ firstname: 'ada', lastname: 'lovelace' })).toBe('AL');
    expect(initials({ firstname: 'Émile', lastname: '' })).toBe('É');
    expect(fullName({ firstname: 'Ada', lastname: 'Lovelace' })).toBe('Ada Lovelace');
  });

  it('formats dates with Intl and shows a dash for none', () => {
    const iso = '2025-03-01T09:00:00.000Z';
    expect(formatDateTime(iso)).toBe(
      new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(
        Date.parse(iso),
      ),
    );
    expect(formatDateTime(null)).toBe('—');
    expect(formatDateTime('garbage')).toBe('—');
  });

  it('says byte counts in the largest unit that fits', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(500 * 1024 ** 2)).toBe('500 MB');
    expect(formatBytes(5 * 1024 ** 3)).toBe('5 GB');
  });
});
