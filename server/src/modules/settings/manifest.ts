/** A person's own settings (`/settings`): notifications, colour scheme, dates, start page, motion. */
import type { AreaManifest } from '../../platform/areas';
import routes from './routes';
import { seedDemoSettings } from './seed';

export const settingsArea: AreaManifest = {
  name: 'settings',
  async register(app, { config, db, now }) {
    await app.register(routes, { db, now, emailAvailable: config.email.url !== null });
  },
  fileOwners: [],
  jobs: [],
  search: null,
  courseContent: null,
  seed: (_app, db, now) => seedDemoSettings(db, now),
};
