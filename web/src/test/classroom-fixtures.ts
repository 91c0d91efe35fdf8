/** Courses, lessons and overviews shaped exactly as the classroom API sends them (core contracts). */
import type {
  CourseCard,
  CourseDetail,
  CourseViewer,
  Lesson,
  LearningOverview,
} from '@learning-hub/core';

export function buildViewer(overrides: Partial<CourseViewer> = {}): CourseViewer {
  return {
    enrolled: false,
    enrolmentEndsAt: null,
    roles: [],
    canLearn: false,
    canEnrol: true,
    enrolBlockedReason: null,
    canUnenrol: false,
    canEdit: false,
    canRestore: false,
    canViewParticipants: false,
    canManageParticipants: false,
    canCreateAssignments: false,
    canViewSubmissions: false,
    canGrade: false,
    canViewAllGrades: false,
    canEditGrades: false,
    canExportGrades: false,
    ...overrides,
  };
}

/** A viewer enrolled as a learner. */
export function learnerViewer(overrides: Partial<CourseViewer> = {}): CourseViewer {
  return buildViewer({
    enrolled: true,
    roles: ['course-student'],
    canLearn: true,
    canEnrol: false,
    canUnenrol: true,
    ...overrides,
  });
}

/** A viewer who teaches the course (course-instructor). */
export function teacherViewer(overrides: Partial<CourseViewer> = {}): CourseViewer {
  return buildViewer({
    roles: ['course-instructor'],
    canLearn: true,
    canEnrol: false,
    canEdit: true,
    canViewParticipants: true,
    canManageParticipants: true,
    canCreateAssignments: true,
    canViewSubmissions: true,
    canGrade: true,
    canViewAllGrades: true,
    canEditGrades: true,
    canExportGrades: true,
    ...overrides,
  });
}

export function buildCourseCard(overrides: Partial<CourseCard> = {}): CourseCard {
  return {
    id: 'course-1',
    code: 'OTDR-101',
    title: 'Fibre testing with an OTDR',
    description: 'Reading traces.',
    departmentId: 'network-engineering',
    departmentName: 'Network Engineering',
    summary: 'Reading traces, finding faults.',
    state: 'published',
    enrolmentMode: 'open',
    startsAt: null,
    endsAt: null,
    capacity: null,
    enrolledCount: 4,
    coverFileId: null,
    coverUrl: null,
    lessonCount: 3,
    progress: null,
    enrolled: false,
    updatedAt: '2025-03-01T09:00:00.000Z',
    ...overrides,
  };
}

export function buildCourseDetail(overrides: Partial<CourseDetail> = {}): CourseDetail {
  const card = buildCourseCard(overrides);
  return {
    ...card,
    summaryHtml: '<p>Reading <strong>traces</strong>, finding faults.</p>',
    enrolmentKey: null,
    createdAt: '2025-02-01T09:00:00.000Z',
    publishedAt: '2025-02-02T09:00:00.000Z',
    revision: 3,
    sections: [
      {
        id: 'section-1',
        title: 'Basics',
        position: 0,
        lessons: [
          {
            id: 'lesson-1',
            sectionId: 'section-1',
            title: 'What an OTDR measures',
            durationMinutes: 15,
            position: 0,
            completed: false,
            revision: 1,
          },
          {
            id: 'lesson-2',
            sectionId: 'section-1',
            title: 'Launch cables',
            durationMinutes: 90,
            position: 1,
            completed: false,
            revision: 1,
          },
        ],
      },
      {
        id: 'section-2',
        title: 'Traces',
        position: 1,
        lessons: [
          {
            id: 'lesson-3',
            sectionId: 'section-2',
            title: 'Reading events',
            durationMinutes: null,
            position: 0,
            completed: false,
            revision: 1,
          },
        ],
      },
    ],
    viewer: buildViewer(),
    lastLessonId: null,
    nextLessonId: 'lesson-1',
    ...overrides,
  };
}

export function buildLesson(overrides: Partial<Lesson> = {}): Lesson {
  return {
    id: 'lesson-2',
    sectionId: 'section-1',
    courseId: 'course-1',
    title: 'Launch cables',
    durationMinutes: 90,
    position: 1,
    completed: false,
    revision: 1,
    bodyHtml: '<h2>Why</h2><p>The dead zone hides the first connector.</p>',
    updatedAt: '2025-03-01T09:00:00.000Z',
    previousLessonId: 'lesson-1',
    nextLessonId: 'lesson-3',
    ...overrides,
  };
}

export function buildOverview(overrides: Partial<LearningOverview> = {}): LearningOverview {
  return {
    courses: [],
    continueLesson: null,
    courseComplete: null,
    dueSoon: [],
    overdue: [],
    recentGrades: [],
    teaching: [],
    toGrade: [],
    recentHandIns: [],
    teachingDue: [],
    ...overrides,
  };
}
