/** Assignments: hand-ins, submissions, grading and the gradebook, inside courses. */
import type { AreaManifest } from '../../platform/areas';
import { listAssignmentIds } from '../courses/public';
import { DueReminders, registerDueReminders } from './assignment-notices';
import assignmentsRoutes from './routes';
import { GRADE_OWNER } from './shared';

export const assignmentsArea: AreaManifest = {
  name: 'assignments',
  async register(app, { config, db, now }) {
    await app.register(assignmentsRoutes, { db, now, maxUploadBytes: config.files.maxUploadBytes });
    registerDueReminders(app, db, now);
  },
  fileOwners: ['assignment', 'submission', GRADE_OWNER],
  jobs: [DueReminders.name],
  search: null,
  // A course with submissions or grades is not deleted (deleteCourseFully), so only the
  // assignments' own files go with it.
  courseContent: async (db, courseId) =>
    (await listAssignmentIds(db, courseId)).map((id) => ({ type: 'assignment', id })),
  seed: null,
};
