import { expect, test, type Page } from '@playwright/test';
import {
  expectNoSeriousA11yViolations,
  signInAs,
  signInAsRole,
  uniqueName,
} from '../support/fixtures';
import {
  apiAs,
  buildCourse,
  grade,
  handIn,
  instructorApi,
  newStudent,
  shot,
} from './classroom-fixtures';

/**
 * axe on every classroom page and dialog, as the people who see them differently: a student
 * (before and after enrolling), an instructor (teaching, grading, building) and an admin.
 * The flows in course-flow.spec.ts scan the dialogs they open (leave without saving, the
 * assignment editor, handing in); these scan the rest.
 */

async function scanDialog(page: Page, name: string | RegExp) {
  const dialog = page.getByRole('dialog', { name });
  await expect(dialog).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  return dialog;
}

/** A published course with a learner who handed in and was graded (all through the API). */
async function teachingCourse(request: Parameters<typeof instructorApi>[0]) {
  const teacher = await instructorApi(request);
  const built = await buildCourse(teacher, { title: `Accessible splicing ${uniqueName('a')}` });
  const student = newStudent('a11y');
  const learner = await apiAs(request, student.username, student.password);
  await learner.post(`/api/courses/${built.course.id}/enrolment`, {});
  const submission = await handIn(learner, built.assignment!.id, { pdfName: 'report.pdf' });
  await grade(teacher, submission.id, 15, '<p>Good work.</p>');
  return { ...built, student, teacher };
}

test('classroom a11y: a student before and after enrolling (catalogue, key, course, lesson, assignment, grades, unenrol)', async ({
  page,
  request,
}) => {
  test.slow();
  const { course, lessons, assignment } = await buildCourse(await instructorApi(request), {
    title: `Accessible reading ${uniqueName('s')}`,
  });
  const student = newStudent('a11y');
  await signInAs(page, student.username, student.password);

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Erin' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.goto('/classroom');
  await expect(page.getByRole('list', { name: 'Courses' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // The key course of the demo: the key dialog, then a wrong key's message inside it.
  await page.goto('/classroom/otdr-trace-analysis');
  await page.getByRole('button', { name: 'Enrol with key' }).click();
  const keyDialog = await scanDialog(page, 'Enrol with the key');
  await keyDialog.getByLabel('Enrolment key').fill('not-the-key');
  await keyDialog.getByRole('button', { name: 'Enrol', exact: true }).click();
  await expect(keyDialog.getByRole('alert')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await keyDialog.getByRole('button', { name: 'Cancel' }).click();

  // Not enrolled yet: the outline without links.
  await page.goto(`/classroom/${course.id}`);
  await expect(page.getByText('Enrol to read the lessons.')).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('button', { name: 'Enrol', exact: true }).click();
  await expect(page.getByText('You are enrolled.')).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.goto(`/classroom/${course.id}/lessons/${lessons[0]!.id}`);
  await expect(page.getByRole('button', { name: 'Mark complete' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.goto(`/classroom/${course.id}/assignments/${assignment!.id}`);
  await expect(page.getByRole('heading', { level: 2, name: 'Your answer' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.goto(`/classroom/${course.id}?tab=grades`);
  await expect(page.getByRole('table', { name: 'Your grades' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.goto('/learning-management');
  await expect(page.getByRole('link', { name: course.title }).first()).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'learning-desktop');

  await page.goto(`/classroom/${course.id}`);
  await page.getByRole('button', { name: 'Unenrol' }).click();
  await scanDialog(page, 'Unenrol from this course?');
});

test('classroom a11y: an instructor teaching (tabs, participants, gradebook, grading and their dialogs)', async ({
  page,
  request,
}) => {
  test.slow();
  const { course, assignment, student } = await teachingCourse(request);
  await signInAsRole(page, 'instructor');

  await page.goto('/classroom');
  await expect(page.getByRole('link', { name: 'Create course' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Courses' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.goto(`/classroom/${course.id}`);
  await expect(page.getByRole('link', { name: 'Edit course' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'course-instructor-desktop');

  await page.getByRole('tab', { name: 'Assignments' }).click();
  await page.getByRole('button', { name: 'Delete Splice report' }).click();
  const del = await scanDialog(page, 'Delete Splice report?');
  await del.getByRole('button', { name: 'Delete assignment' }).click();
  // It has a submission and a grade: the server's refusal shows in the dialog.
  await expect(del.getByRole('alert')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await del.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('tab', { name: 'Grades' }).click();
  await expect(page.getByRole('table', { name: 'Gradebook' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'gradebook-desktop');
  await page
    .getByRole('button', { name: new RegExp(`^Override ${student.name}, Splice report`) })
    .click();
  const override = await scanDialog(page, /^Override grade: /);
  await override.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('tab', { name: 'Participants' }).click();
  await expect(page.getByRole('table', { name: 'Participants' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('button', { name: 'Add people' }).click();
  const add = await scanDialog(page, 'Add people');
  await add.getByRole('textbox', { name: 'Search people' }).fill('a11y');
  await expect(add.getByRole('button', { name: /^Choose / }).first()).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await add.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: `Change roles of ${student.name}` }).click();
  const roles = await scanDialog(page, `Roles of ${student.name}`);
  await roles.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: `Remove ${student.name}` }).click();
  const remove = await scanDialog(page, 'Remove from the course?');
  await remove.getByRole('button', { name: 'Cancel' }).click();

  await page.goto(`/classroom/${course.id}/assignments/${assignment!.id}`);
  await expect(page.getByRole('table', { name: 'Submissions' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'assignment-grader-desktop');
});

test('classroom a11y: the course creator, every step and its dialogs', async ({
  page,
  request,
}) => {
  test.slow();
  const { course } = await buildCourse(await instructorApi(request), {
    title: `Accessible draft ${uniqueName('d')}`,
    draft: true,
  });
  await signInAsRole(page, 'instructor');

  await page.goto('/course/create');
  await expect(page.getByRole('textbox', { name: 'Course code' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'creator-new-desktop');

  await page.goto(`/course-creator?course=${course.id}`);
  await expect(page.getByRole('textbox', { name: 'Summary' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('button', { name: 'Next step' }).click();
  await expect(page.getByRole('group', { name: 'Section: Getting started' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'creator-structure-desktop');
  await page.getByRole('button', { name: 'Delete: Getting started' }).click();
  const del = await scanDialog(page, 'Delete section "Getting started"?');
  await del.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('button', { name: 'Next step' }).click();
  await page.getByRole('combobox', { name: 'Lesson to edit' }).click();
  await page.getByRole('option', { name: 'Cleaving the fibre' }).click();
  await expect(page.getByRole('textbox', { name: 'Lesson content' })).toContainText(
    'Score and break',
  );
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'creator-lessons-desktop');

  await page.getByRole('button', { name: 'Next step' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Assignments' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Assignments' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('button', { name: 'Next step' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Publish' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('button', { name: 'Preview as a student' }).click();
  await scanDialog(page, /^Student preview/);
  await page.getByRole('button', { name: 'Close preview' }).click();
  await page.getByRole('button', { name: 'Copy as new run' }).click();
  await scanDialog(page, 'Copy as a new run');
});

test('classroom a11y: an admin sees every state in the catalogue and manages any course', async ({
  page,
  request,
}) => {
  const { course } = await teachingCourse(request);
  await signInAsRole(page, 'admin');
  await page.goto('/classroom?state=any');
  await expect(page.getByRole('list', { name: 'Courses' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'State' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.goto(`/classroom/${course.id}?tab=participants`);
  await expect(page.getByRole('table', { name: 'Participants' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.goto('/learning-management');
  await expect(page.getByRole('heading', { level: 1, name: 'Learning Management' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});
