/**
 * Demo settings: a few people of the demo who chose something other than the defaults, so the
 * settings page and what it changes show with the demo data (docs/settings.md).
 */
import { defaultUserSettings, type UserSettings } from '@learning-hub/core';
import { findUserByUsername } from '../../platform/auth/user-repository';
import type { Db } from '../../platform/db';
import { writeUserSettings } from '../../platform/settings/user-settings-repository';

/** Who chose what (the demo accounts of seed.ts and the classroom's demo learners). */
export const DEMO_SETTINGS: readonly {
  username: string;
  change: (settings: UserSettings) => void;
}[] = [
  {
    // The demo instructor works in the dark, and writes dates day first.
    username: 'instructor',
    change: (s) => {
      s.colorScheme = 'dark';
      s.dateFormat = 'day-month-year';
      s.notifications['wiki.page-changed'] = 'email';
    },
  },
  {
    // The demo student wants announcements and grades by email too.
    username: 'student',
    change: (s) => {
      s.notifications.announcement = 'email';
      s.notifications['submission.graded'] = 'email';
    },
  },
  {
    // A learner on the Singapore crew: local time there, the library first, no animations.
    username: 'mei.chen',
    change: (s) => {
      s.timeZone = 'Asia/Singapore';
      s.startPage = '/library';
      s.reducedMotion = 'reduce';
      s.notifications['library.item-added'] = 'none';
    },
  },
  {
    username: 'jordan.lee',
    change: (s) => {
      s.dateFormat = 'iso';
      s.timeZone = 'UTC';
    },
  },
];

/** Seeds the demo settings once (when nobody has saved any); returns whether it did. */
export async function seedDemoSettings(db: Db, now = new Date()): Promise<boolean> {
  const existing = await db.selectFrom('user_settings').select('user_id').limit(1).execute();
  if (existing.length > 0) return false;
  const at = now.toISOString();
  let seeded = false;
  for (const { username, change } of DEMO_SETTINGS) {
    const user = await findUserByUsername(db, username);
    if (!user) continue;
    const settings = defaultUserSettings();
    change(settings);
    await writeUserSettings(db, user.id, settings, at);
    seeded = true;
  }
  return seeded;
}
