import { describe, expect, it } from 'vitest';
import { formatDateTime, fullName, initials } from './format';

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
});
