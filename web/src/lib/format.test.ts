import { defaultUserSettings } from '@learning-hub/core';
import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatDate,
  formatDateTime,
  formatDateTimeSeconds,
  fullName,
  initials,
} from './format';
import { setDisplaySettings } from './settings/display-settings';

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

  it('writes dates in the person’s date format and time zone', () => {
    const iso = '2026-12-31T23:05:09.000Z';
    const at = (
      dateFormat: 'day-month-year' | 'month-day-year' | 'iso',
      timeZone: string | null,
    ) => [formatDateTime(iso, { dateFormat, timeZone }), formatDate(iso, { dateFormat, timeZone })];
    expect(at('day-month-year', 'UTC')).toEqual(['31/12/2026 23:05', '31/12/2026']);
    expect(at('month-day-year', 'UTC')).toEqual(['12/31/2026 11:05 PM', '12/31/2026']);
    expect(at('iso', 'UTC')).toEqual(['2026-12-31 23:05', '2026-12-31']);
    // Already New Year's Day in Berlin, an hour ahead.
    expect(at('iso', 'Europe/Berlin')).toEqual(['2027-01-01 00:05', '2027-01-01']);
    expect(at('month-day-year', 'Europe/Berlin')).toEqual(['01/01/2027 12:05 AM', '01/01/2027']);
    // A zone this browser does not know: the device's own, rather than an error.
    expect(at('iso', 'Mars/Olympus_Mons')).toEqual(at('iso', null));
  });

  it('follows the settings in force when none are given', () => {
    const iso = '2026-12-31T23:05:09.000Z';
    setDisplaySettings({
      ...defaultUserSettings(),
      dateFormat: 'day-month-year',
      timeZone: 'Asia/Tokyo',
    });
    expect(formatDateTime(iso)).toBe('01/01/2027 08:05');
    expect(formatDateTimeSeconds(iso)).toBe('01/01/2027 08:05:09');
    expect(formatDate(iso)).toBe('01/01/2027');
    setDisplaySettings({ ...defaultUserSettings(), dateFormat: 'iso', timeZone: 'UTC' });
    expect(formatDateTime(iso)).toBe('2026-12-31 23:05');
  });
});
