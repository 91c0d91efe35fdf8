/** The permission model's admin pages: system and context roles, assignments, the check audit. */
import type { AreaManifest } from '../../platform/areas';
import adminAccessRoutes from './access-routes';
import adminRolesRoutes from './roles-routes';

export const accessAdminArea: AreaManifest = {
  name: 'access-admin',
  async register(app, { db, now }) {
    await app.register(adminRolesRoutes, { db, now });
    await app.register(adminAccessRoutes, { db, now });
  },
  fileOwners: [],
  jobs: [],
  search: null,
  courseContent: null,
  seed: null,
};
