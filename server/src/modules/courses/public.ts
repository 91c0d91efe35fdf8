/**
 * What other areas may use of this area (docs/architecture.md, "Areas and the platform"): they
 * import it from here, never from the area's other files (lint enforces it).
 */
export { type CourseAccess, type CourseGate, courseAccess, courseContext } from './course-access';
export { listAssignmentIds } from './structure-repository';
export { findCourseRecord, findCourseRecords } from './course-repository';
export { applyEnrolmentBlockRule } from './enrolment-service';
export { type DepartmentCourse, coursesOfDepartment } from './department-reads';
export { type GroupProgress, type LearnerIds, progressOfGroup } from './progress-repository';
