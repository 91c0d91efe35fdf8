/**
 * The pages under /classroom, rendered in the classroom layout's outlet: they sit behind the
 * guard of the /classroom route (course.view), loaded lazily. What a person may do in one course
 * comes from the server with the course (`CourseDetail.viewer`).
 */
import type { RouteObject } from 'react-router';

export const CLASSROOM_CHILD_ROUTES: RouteObject[] = [
  {
    index: true,
    lazy: () => import('./components/catalogue-page').then((m) => ({ Component: m.CataloguePage })),
  },
  {
    path: ':courseId',
    lazy: () => import('./components/course-page').then((m) => ({ Component: m.CoursePage })),
  },
  {
    path: ':courseId/lessons/:lessonId',
    lazy: () => import('./components/lesson-page').then((m) => ({ Component: m.LessonPage })),
  },
  // ---- Assignments and grading: the modules below belong to the assignments work
  // ---- (components/assignment-page.tsx, components/grader-page.tsx).
  {
    path: ':courseId/assignments/:assignmentId',
    lazy: () =>
      import('./components/assignment-page').then((m) => ({ Component: m.AssignmentPage })),
  },
  {
    path: ':courseId/assignments/:assignmentId/grade',
    lazy: () => import('./components/grader-page').then((m) => ({ Component: m.GraderPage })),
  },
  // ---- end of the assignments routes
];
