/** Accounts: sign-in (every provider), sessions, profiles, and the admin's users and sign-in settings. */
import type { AreaManifest } from '../../platform/areas';
import adminAuthRoutes from './admin-auth-routes';
import adminUsersRoutes from './admin-users-routes';
import manageUsersRoutes from './manage-users-routes';
import providerRoutes from './provider-routes';
import authRoutes from './routes';

export const accountsArea: AreaManifest = {
  name: 'accounts',
  async register(app, { config, db, now }) {
    const { devMode, publicUrl } = config;
    await app.register(authRoutes, { db, now, devMode });
    await app.register(providerRoutes, { db, now, devMode, publicUrl });
    await app.register(adminAuthRoutes, { db, now, devMode, publicUrl });
    await app.register(adminUsersRoutes, { db, now });
    await app.register(manageUsersRoutes, { db, now });
  },
  fileOwners: [],
  jobs: [],
  search: null,
  courseContent: null,
  seed: null,
};
