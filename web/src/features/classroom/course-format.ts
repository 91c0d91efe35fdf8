/** Words and dates of the classroom, shared by the classroom, learning and start pages. */
import type { CourseState } from '@learning-hub/core';

export const COURSE_ROLE_LABELS: Readonly<Record<string, string>> = {
  'course-instructor': 'Instructor',
  'course-assistant': 'Assistant',
  'course-student': 'Student',
};

/** A course role id in words (unknown ids as they are). */
export function courseRoleLabel(role: string): string {
  return COURSE_ROLE_LABELS[role] ?? role;
}

export const COURSE_STATE_LABELS: Readonly<Record<CourseState, string>> = {
  draft: 'Draft',
  published: 'Published',
  archived: 'Archived',
};

export const COURSE_STATE_COLORS: Readonly<Record<CourseState, string>> = {
  draft: 'yellow',
  published: 'green',
  archived: 'gray',
};

/**
 * A date as the person reads dates (their date format and time zone: lib/format.ts); '—' for a
 * missing or invalid value. `prepareDateFormat` makes its formatter ahead of time.
 */
export { formatDate, prepareDateFormat } from '../../lib/format';

/** `45 min`, `1 h 30 min`; '' for none. */
export function formatDuration(minutes: number | null | undefined): string {
  if (!minutes) return '';
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** `3 of 8 lessons complete`. */
export function progressText(progress: { completedLessons: number; totalLessons: number }) {
  return `${progress.completedLessons} of ${progress.totalLessons} lessons complete`;
}

/** The message of an error to show: the server's message, or a fallback. */
export function errorMessage(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'Something went wrong';
}
