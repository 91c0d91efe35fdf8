/** Courses: the catalogue, the classroom (sections, lessons, progress), enrolment and the creator. */
import type { AreaManifest } from '../../platform/areas';
import { courseSearchScopes } from './course-search';
import { COURSE_COVER, LESSON } from './course-service';
import lessonsRoutes from './lessons-routes';
import participantsRoutes from './participants-routes';
import courseRoutes from './routes';
import { seedDemoClassroom } from './seed';

export const coursesArea: AreaManifest = {
  name: 'courses',
  async register(app, { db, now }) {
    await app.register(courseRoutes, { db, now });
    await app.register(lessonsRoutes, { db, now });
    await app.register(participantsRoutes, { db, now });
  },
  fileOwners: [COURSE_COVER, LESSON],
  jobs: [],
  search: { types: ['course', 'lesson'], scopes: courseSearchScopes },
  // The course's own files (cover, summary, lessons) are the course's: deleteCourseFully.
  courseContent: null,
  seed: (_app, db, now) => seedDemoClassroom(db, now),
};
