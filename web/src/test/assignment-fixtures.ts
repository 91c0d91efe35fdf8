/** Assignments, submissions, grades and gradebooks shaped exactly as the API sends them. */
import type {
  Assignment,
  AssignmentDetail,
  Grade,
  Gradebook,
  Submission,
} from '@learning-hub/core';

export function buildAssignment(overrides: Partial<Assignment> = {}): Assignment {
  return {
    id: 'assignment-1',
    courseId: 'course-1',
    title: 'Trace report',
    instructionsHtml: '<p>Measure the link and explain the events.</p>',
    dueAt: '2025-04-01T16:00:00.000Z',
    points: 20,
    submissionKinds: ['text', 'file'],
    fileKinds: ['pdf', 'image'],
    maxFileBytes: 10 * 1024 * 1024,
    latePolicy: 'mark_late',
    maxAttempts: 2,
    gradesReleased: false,
    releaseOnSave: false,
    position: 0,
    createdAt: '2025-03-01T09:00:00.000Z',
    updatedAt: '2025-03-01T09:00:00.000Z',
    revision: 1,
    mine: null,
    toGrade: null,
    unreleasedGrades: null,
    canReleaseGrades: false,
    ...overrides,
  };
}

export function buildAssignmentDetail(overrides: Partial<AssignmentDetail> = {}): AssignmentDetail {
  return {
    ...buildAssignment(overrides),
    courseTitle: 'Fibre testing with an OTDR',
    attachments: [],
    ...overrides,
  };
}

export function buildGrade(overrides: Partial<Grade> = {}): Grade {
  return {
    assignmentId: 'assignment-1',
    userId: 'user-student',
    submissionId: 'submission-1',
    points: 15,
    maxPoints: 20,
    feedbackHtml: '<p>Good trace.</p>',
    gradedBy: 'user-instructor',
    gradedByName: 'Ines Instructor',
    gradedAt: '2025-03-05T09:00:00.000Z',
    override: false,
    released: true,
    revision: 1,
    ...overrides,
  };
}

export function buildSubmission(overrides: Partial<Submission> = {}): Submission {
  return {
    id: 'submission-1',
    assignmentId: 'assignment-1',
    courseId: 'course-1',
    userId: 'user-student',
    userName: 'Sam Student',
    attempt: 1,
    status: 'submitted',
    textHtml: '<p>The splice at 2.1 km loses 0.3 dB.</p>',
    files: [],
    submittedAt: '2025-03-04T09:00:00.000Z',
    late: false,
    updatedAt: '2025-03-04T09:00:00.000Z',
    grade: null,
    ...overrides,
  };
}

export function buildGradebook(overrides: Partial<Gradebook> = {}): Gradebook {
  return {
    courseId: 'course-1',
    assignments: [
      {
        id: 'assignment-1',
        title: 'Trace report',
        points: 20,
        dueAt: null,
        gradesReleased: true,
        unreleasedGrades: 0,
      },
      {
        id: 'assignment-2',
        title: 'Splice log',
        points: 10,
        dueAt: null,
        gradesReleased: true,
        unreleasedGrades: 0,
      },
    ],
    items: [
      {
        userId: 'user-student',
        username: 'student',
        name: 'Sam Student',
        grades: {
          'assignment-1': { points: 15, override: false, late: true, submissionId: 'submission-1' },
          'assignment-2': null,
        },
        totalPoints: 15,
        percent: 50,
      },
    ],
    total: 1,
    page: 1,
    pageSize: 25,
    ...overrides,
  };
}

/** ProseMirror measures the selection when typing; jsdom has no layout (call in beforeAll). */
export function stubLayoutForEditor(): void {
  const rect = { x: 0, y: 0, top: 0, left: 0, bottom: 0, right: 0, width: 0, height: 0 };
  const list = Object.assign([rect], { item: () => rect });
  Range.prototype.getBoundingClientRect = () => ({ ...rect, toJSON: () => rect });
  Range.prototype.getClientRects = () => list as unknown as DOMRectList;
  document.elementFromPoint = () => null;
}
