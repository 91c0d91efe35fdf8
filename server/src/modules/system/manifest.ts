/** Admin → System: the server's state and settings, and the background jobs. */
import type { AreaManifest } from '../../platform/areas';
import adminJobsRoutes from './jobs-routes';
import adminSystemRoutes from './routes';

export const systemArea: AreaManifest = {
  name: 'system',
  async register(app, { config, db, now }) {
    await app.register(adminSystemRoutes, { db, now, uploadLimits: config.files.limits });
    await app.register(adminJobsRoutes, { jobs: app.jobs, db });
  },
  fileOwners: [],
  jobs: [],
  search: null,
  courseContent: null,
  seed: null,
};
