/**
 * The assignments' policy (docs/architecture.md, "Areas and the platform"): who may do what with one
 * assignment, hand-in or grade, on top of the course's access (courses' `courseAccess`). The file
 * owners (routes.ts) and the assignment's `canReleaseGrades` ask it; each route's requirement of
 * a permission stays in its `config.access` and `requirePermission`, which give the permission
 * model's own reason. See docs/classroom.md ("Who sees what").
 */
import type { CourseAccess } from '../courses/public';
import type { AssignmentRecord } from './assignment-repository';
import type { SubmissionRecord } from './submission-repository';

/** The caller's access to the course an assignment belongs to, and whether it is archived. */
export interface AssignmentGate {
  access: CourseAccess;
  archived: boolean;
}

/** Whether the course may be changed by someone taking part in it (archived courses are read-only). */
const mayChange = (gate: AssignmentGate) => !gate.archived && gate.access.canLearn;

/** Instruction files: the course's participants (and its editors) read them. */
export function mayReadInstructions(gate: AssignmentGate): boolean {
  return gate.access.canLearn;
}

/** Instruction files: those who build assignments attach them, while the course is open. */
export function mayAttachInstructions(gate: AssignmentGate): boolean {
  return (
    mayChange(gate) && (gate.access.can('assignment.edit') || gate.access.can('assignment.create'))
  );
}

/** A hand-in and its files: the learner themself, and graders once it is handed in. */
export function mayReadSubmission(
  gate: AssignmentGate,
  userId: string,
  submission: Pick<SubmissionRecord, 'userId' | 'status'>,
): boolean {
  if (!gate.access.canLearn) return false;
  if (submission.userId === userId) return true;
  return submission.status === 'submitted' && gate.access.can('assignment.view_submissions');
}

/** Files go into a hand-in only while it is the learner's own draft. */
export function mayAttachToSubmission(
  userId: string,
  submission: Pick<SubmissionRecord, 'userId' | 'status'>,
): boolean {
  return submission.userId === userId && submission.status === 'draft';
}

/**
 * A learner's grade and its feedback: whoever sees every grade of the course, and the learner
 * themself once the assignment's grades are released.
 */
export function mayReadGrade(
  gate: AssignmentGate,
  userId: string,
  learnerId: string,
  assignment: Pick<AssignmentRecord, 'gradesReleased'>,
): boolean {
  if (!gate.access.canLearn) return false;
  if (gate.access.can('grade.view_all')) return true;
  return learnerId === userId && assignment.gradesReleased && gate.access.can('grade.view_own');
}

/** Feedback pictures: those who grade, while the course is open. */
export function mayAttachFeedback(gate: AssignmentGate): boolean {
  return mayChange(gate) && (gate.access.can('assignment.grade') || gate.access.can('grade.edit'));
}

/** Showing or hiding an assignment's grades (the PATCH's `gradesReleased`), as `can` tells the web. */
export function mayReleaseGrades(gate: AssignmentGate): boolean {
  return mayChange(gate) && gate.access.can('assignment.edit');
}
