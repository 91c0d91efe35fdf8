/** Announcements: composing, scheduling, publishing to an audience, acknowledgements, reminders. */
import type { AreaManifest } from '../../platform/areas';
import { PublishAnnouncement, registerAnnouncementJobs } from './announcement-jobs';
import { ANNOUNCEMENT_OWNER } from './announcement-repository';
import routes from './routes';
import { seedDemoAnnouncements } from './seed';

export const announcementsArea: AreaManifest = {
  name: 'announcements',
  async register(app, { db, now }) {
    registerAnnouncementJobs(app, { app, db, now });
    await app.register(routes, { db, now });
  },
  fileOwners: [ANNOUNCEMENT_OWNER],
  jobs: [PublishAnnouncement.name],
  search: null,
  // An announcement to a course is not the course's content: it stays (with its recipients)
  // when the course goes, as a record of what was said.
  courseContent: null,
  seed: (app, db, now) => seedDemoAnnouncements(app, db, now),
};
