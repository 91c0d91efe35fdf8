/** Department pages: each department's page, members, managers and figures. */
import type { AreaManifest } from '../../platform/areas';
import departmentRoutes from './routes';
import { DEPARTMENT_OWNER } from './department-service';
import { seedDemoDepartments } from './seed';

export const departmentsArea: AreaManifest = {
  name: 'departments',
  async register(app, { db, now, changes }) {
    await app.register(departmentRoutes, { db, now, changes });
  },
  fileOwners: [DEPARTMENT_OWNER],
  jobs: [],
  search: null,
  courseContent: null,
  seed: (_app, db, now) => seedDemoDepartments(db, now),
};
