import { readFile } from 'node:fs/promises';
import type { AssignmentDetail, Lesson } from '@learning-hub/core';
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
  handIn,
  instructorApi,
  minimalPdf,
  newStudent,
  shot,
} from './classroom-fixtures';

/** Types into a rich-text editor the way a fast typist does (no delay between keys). */
async function typeRichText(page: Page, label: string, text: string) {
  const box = page.getByRole('textbox', { name: label });
  // The keys go where the focus is: make sure it is in the editor (a PDF viewer loading in a
  // frame of the page can take it once), then type.
  await expect(async () => {
    await box.click();
    await expect(box).toBeFocused({ timeout: 1_000 });
  }).toPass();
  await page.keyboard.type(text);
  await expect(box).toContainText(text);
}

test('classroom: an instructor builds a course in the creator, with a PDF assignment, publishes it and opens it', async ({
  page,
  request,
}) => {
  test.slow();
  const code = uniqueName('FIB').replace(/[^A-Za-z0-9-]/g, '');
  const title = `Splicing in the cold ${code}`;
  await signInAsRole(page, 'instructor');
  await page.goto('/classroom');
  await page.getByRole('link', { name: 'Create course' }).click();
  await expect(page).toHaveURL('/course/create');
  await expect(page.getByRole('heading', { level: 1, name: 'Course Creator' })).toBeVisible();

  // Basics: a code and a title make the draft; the summary is typed in the editor.
  await page.getByRole('textbox', { name: 'Course code' }).fill(code);
  await page.getByRole('textbox', { name: 'Title' }).fill(title);
  await typeRichText(page, 'Summary', 'Fusion splicing when the van is at minus ten.');
  await page.getByRole('button', { name: 'Create draft' }).click();
  await expect(page).toHaveURL(/\/course\/create\?course=/);
  const courseId = new URL(page.url()).searchParams.get('course')!;
  const slug = code.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  expect(courseId).toBe(slug);
  await expect(page.getByText(`${code} · ${title}`)).toBeVisible();

  // Structure: two sections, a lesson in each.
  await page.getByRole('button', { name: 'Next step' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Structure' })).toBeVisible();
  for (const [section, lesson] of [
    ['Preparation', 'Stripping the buffer'],
    ['Splicing', 'Fusing and protecting'],
  ] as const) {
    await page.getByRole('textbox', { name: 'New section title' }).fill(section);
    await page.getByRole('button', { name: 'Add section' }).click();
    await expect(page.getByRole('group', { name: `Section: ${section}` })).toBeVisible();
    await page.getByRole('textbox', { name: `New lesson in ${section}` }).fill(lesson);
    await page.getByRole('button', { name: `Add lesson to ${section}` }).click();
    await expect(page.getByRole('group', { name: `Lesson: ${lesson}` })).toBeVisible();
  }

  // Lessons: the bodies are typed fast; every character must arrive (the editor once dropped some).
  await page.getByRole('button', { name: 'Next step' }).click();
  const bodies = {
    'Stripping the buffer':
      'Strip 40 mm of the 900 micron buffer with the three-hole stripper, then wipe with alcohol.',
    'Fusing and protecting':
      'Load both fibres, check the cleave angle below one degree, fuse, then shrink the sleeve.',
  };
  for (const [lesson, text] of Object.entries(bodies)) {
    await page.getByRole('combobox', { name: 'Lesson to edit' }).click();
    await page.getByRole('option', { name: lesson }).click();
    await typeRichText(page, 'Lesson content', text);
    await expect(page.getByRole('status').filter({ hasText: /^Saved$/ })).toBeVisible();
  }
  const api = await instructorApi(request);
  const course = await api.get<{ sections: { lessons: { id: string; title: string }[] }[] }>(
    `/api/courses/${courseId}`,
  );
  for (const section of course.sections) {
    for (const l of section.lessons) {
      const saved = await api.get<Lesson>(`/api/courses/${courseId}/lessons/${l.id}`);
      expect(saved.bodyHtml).toBe(`<p>${bodies[l.title as keyof typeof bodies]}</p>`);
    }
  }

  // Leaving with unsaved changes asks first.
  await page.getByRole('textbox', { name: 'Lesson content' }).click();
  await page.keyboard.type(' Done.');
  await page.getByRole('link', { name: 'Learning Hub home' }).click();
  const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(leave).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await leave.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(leave).toBeHidden();
  await expect(page).toHaveURL(/course=/);
  await expect(page.getByRole('status').filter({ hasText: /^Saved$/ })).toBeVisible();

  // Assignments, in the creator with the course page's own editor: PDF files only.
  await page.getByRole('button', { name: 'Next step' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Assignments' })).toBeVisible();
  await expect(page.getByText('No assignments yet.')).toBeVisible();
  await page.getByRole('button', { name: 'New assignment' }).click();
  const editor = page.getByRole('dialog', { name: 'New assignment' });
  await editor.getByRole('textbox', { name: 'Title' }).fill('Cold-weather splice report');
  await typeRichText(page, 'Instructions', 'Photograph three splices and hand in one PDF.');
  await editor.getByRole('checkbox', { name: 'A text answer' }).uncheck();
  await editor.getByRole('checkbox', { name: 'PDF' }).check();
  await expectNoSeriousA11yViolations(page);
  await editor.getByRole('button', { name: 'Create assignment' }).click();
  await expect(editor).toBeHidden();
  await expect(page.getByRole('link', { name: 'Cold-weather splice report' })).toBeVisible();

  // Publish: a draft is not offered Archive; once published, the course page is.
  await page.getByRole('button', { name: 'Next step' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Publish' })).toBeVisible();
  await expect(page.getByText('Has at least one lesson: done')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Archive' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Unpublish' })).toBeVisible();
  const viewCourse = page.getByRole('link', { name: 'View course' });
  await expect(viewCourse).toBeFocused();
  await shot(page, 'creator-publish-desktop');
  await viewCourse.click();
  // The course's address is its code, readable.
  await expect(page).toHaveURL(`/classroom/${slug}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await page.getByRole('tab', { name: 'Assignments' }).click();
  await expect(page.getByRole('link', { name: 'Cold-weather splice report' })).toBeVisible();

  const { items: assignments } = await api.get<{ items: AssignmentDetail[] }>(
    `/api/courses/${courseId}/assignments`,
  );
  expect(assignments).toEqual([
    expect.objectContaining({
      title: 'Cold-weather splice report',
      submissionKinds: ['file'],
      fileKinds: ['pdf'],
      instructionsHtml: '<p>Photograph three splices and hand in one PDF.</p>',
    }),
  ]);

  // Published: a learner finds it in the catalogue.
  const someone = newStudent();
  const learner = await apiAs(request, someone.username, someone.password);
  const found = await learner.get<{ items: { id: string; state: string }[] }>(
    `/api/courses?search=${encodeURIComponent(code)}`,
  );
  expect(found.items).toEqual([expect.objectContaining({ id: courseId, state: 'published' })]);
});

test('classroom: a student enrols from the catalogue, reads with previous/next, completes a lesson and hands in a PDF', async ({
  page,
  request,
}) => {
  test.slow();
  const { course, lessons } = await buildCourse(await instructorApi(request), {
    title: `Reading splices ${uniqueName('c')}`,
  });
  const student = newStudent();
  await signInAs(page, student.username, student.password);

  await page.goto('/classroom');
  await page.getByRole('textbox', { name: 'Search' }).fill(course.title);
  await expect(page.getByText('1 course', { exact: true })).toBeVisible();
  await page.getByRole('link', { name: course.title }).click();
  await expect(page.getByRole('heading', { level: 1, name: course.title })).toBeVisible();
  await expect(page.getByText('Enrol to read the lessons.')).toBeVisible();
  await page.getByRole('button', { name: 'Enrol', exact: true }).click();
  await expect(page.getByText('You are enrolled.')).toBeVisible();

  await page.getByRole('link', { name: 'Start' }).click();
  const [first, second] = lessons as [Lesson, Lesson];
  await expect(page.getByRole('heading', { level: 1, name: first.title })).toBeVisible();
  await expect(page.getByText('Score and break the fibre.')).toBeVisible();
  await page.getByRole('link', { name: `Next lesson: ${second.title}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: second.title })).toBeVisible();
  await expect(page.getByText('Align the cores and fuse.')).toBeVisible();
  await page.getByRole('link', { name: `Previous lesson: ${first.title}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: first.title })).toBeVisible();

  await page.getByRole('button', { name: 'Mark complete' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Completed' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Mark not complete' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'lesson-desktop');

  await page.getByRole('link', { name: course.title }).click();
  await expect(page.getByText('50% · 1 of 2 lessons complete')).toBeVisible();
  await page.getByRole('tab', { name: 'Assignments' }).click();
  await page.getByRole('link', { name: 'Splice report' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Splice report' })).toBeVisible();

  // The dropzone's own file input takes the PDF.
  await page.locator('.mantine-Dropzone-root input[type=file]').setInputFiles({
    name: 'splice-report.pdf',
    mimeType: 'application/pdf',
    buffer: minimalPdf(),
  });
  const files = page.getByRole('list', { name: 'Files' });
  await expect(files.getByText(/^splice-report\.pdf \(/)).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Uploading splice-report.pdf' })).toHaveCount(
    0,
  );
  await shot(page, 'assignment-learner-desktop');
  await page.getByRole('button', { name: 'Submit' }).click();
  const confirm = page.getByRole('dialog', { name: 'Hand in your work?' });
  await expect(confirm).toContainText('This hands in attempt 1.');
  await expectNoSeriousA11yViolations(page);
  await confirm.getByRole('button', { name: 'Hand in' }).click();
  await expect(confirm).toBeHidden();
  // What was handed in takes the form's place; another attempt is there to start.
  const attempt = page.getByRole('article', { name: 'Attempt 1' });
  await expect(attempt.getByRole('link', { name: /^splice-report\.pdf/ })).toBeVisible();
  await expect(attempt.getByText('No grade to show yet.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Submit' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Start a new attempt' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test('classroom: the instructor grades a PDF inline, releases grades, the student sees them and the gradebook exports CSV', async ({
  page,
  browser,
  request,
}) => {
  test.slow();
  const teacher = await instructorApi(request);
  const { course, assignment } = await buildCourse(teacher, {
    title: `Grading splices ${uniqueName('c')}`,
  });
  const student = newStudent();
  const learner = await apiAs(request, student.username, student.password);
  await learner.post(`/api/courses/${course.id}/enrolment`, {});
  await handIn(learner, assignment!.id, { pdfName: 'field-report.pdf' });

  await signInAsRole(page, 'instructor');
  const assignmentUrl = `/classroom/${course.id}/assignments/${assignment!.id}`;
  await page.goto(assignmentUrl);
  await expect(page.getByRole('status', { name: 'Grades not released' })).toBeVisible();
  await page.getByRole('link', { name: `Grade ${student.name}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Grade: Splice report' })).toBeVisible();

  // The PDF is shown in the page, served as a PDF to this viewer.
  const pdf = page.locator('iframe[title="field-report.pdf (PDF)"]');
  await expect(pdf).toBeVisible();
  // Chromium's PDF viewer opened in the frame (a frame the server refused shows an error page).
  const frame = (await pdf.elementHandle())!.contentFrame();
  await expect.poll(async () => (await frame)?.url()).toContain('/api/files/');
  await expect
    .poll(() => page.frames().some((f) => f.url().startsWith('chrome-extension://')))
    .toBe(true);
  const served = await page.request.get((await pdf.getAttribute('src'))!);
  expect(served.headers()['content-type']).toContain('application/pdf');
  expect((await served.body()).subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');

  await page.getByRole('textbox', { name: 'Points (out of 20)' }).fill('17');
  await typeRichText(page, 'Feedback', 'Clean cleaves; label the trays next time.');
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'grader-desktop');
  await page.getByRole('button', { name: 'Save grade' }).click();
  await expect(
    page.getByRole('list', { name: 'Grade history' }).getByText(/^17 \/ 20 by Priya Shah/),
  ).toBeVisible();
  // Said where the trainer grades: learners do not see it yet.
  const release = page.getByRole('status', { name: '1 grade not released' });
  await expect(release).toContainText('Learners cannot see this grade until grades are released.');
  await expectNoSeriousA11yViolations(page);

  // Hidden until released.
  const studentContext = await browser.newContext();
  const studentPage = await studentContext.newPage();
  await signInAs(studentPage, student.username, student.password);
  await studentPage.goto(assignmentUrl);
  const attempt = studentPage.getByRole('article', { name: 'Attempt 1' });
  await expect(attempt.getByText('No grade to show yet.')).toBeVisible();

  await release.getByRole('button', { name: 'Release grades' }).click();
  await expect(page.getByRole('status', { name: 'Grades released' })).toContainText(
    'Learners can see this grade.',
  );

  await studentPage.reload();
  await expect(attempt.getByText('Grade: 17 / 20')).toBeVisible();
  await expect(attempt.getByText('Clean cleaves; label the trays next time.')).toBeVisible();
  await studentPage.goto(`/classroom/${course.id}?tab=grades`);
  await expect(
    studentPage
      .getByRole('table', { name: 'Your grades' })
      .getByRole('row', { name: /Splice report/ }),
  ).toContainText('17');
  await studentContext.close();

  // The gradebook's export downloads the CSV.
  await page.goto(`/classroom/${course.id}?tab=grades`);
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${course.code}-grades.csv`);
  const csv = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '');
  const lines = csv.trim().split(/\r?\n/);
  expect(lines[0]).toBe(
    '"Username","First name","Last name","Splice report (20)","Total","Percent"',
  );
  const row = lines.find((l) => l.startsWith(`"${student.username}",`));
  expect(row).toBe(`"${student.username}","Erin","Test",17,17,85`);
});
