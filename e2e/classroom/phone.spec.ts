import { expect, test } from '@playwright/test';
import { signInAs, signInAsRole, uniqueName } from '../support/fixtures';
import {
  buildCourse,
  expectNoHorizontalScroll,
  instructorApi,
  newStudent,
  shot,
} from './classroom-fixtures';

test.use({ viewport: { width: 375, height: 740 } });

test('classroom: on a phone a student enrols, reads a lesson and opens an assignment without sideways scrolling', async ({
  page,
  request,
}) => {
  test.slow();
  const { course, lessons } = await buildCourse(await instructorApi(request), {
    title: `Splicing on a pole top with a very long course title ${uniqueName('p')}`,
    lessons: [
      {
        section: 0,
        title: 'Reading an OTDR trace with reflective events and ghosts',
        bodyHtml:
          '<h2>Events</h2><p>A reflective event at 1.2 km: https://example.com/a-very-long-unbroken-link-that-would-otherwise-push-the-page-sideways-on-a-phone</p>' +
          '<table><tbody><tr><td>Event</td><td>Distance</td><td>Loss</td><td>Reflectance</td><td>Type</td><td>Comment</td></tr>' +
          '<tr><td>1</td><td>0.000 km</td><td>0.00 dB</td><td>-45 dB</td><td>Connector</td><td>Launch cord end</td></tr></tbody></table>',
      },
      { section: 1, title: 'Fusing the splice', bodyHtml: '<p>Align the cores and fuse.</p>' },
    ],
  });
  const student = newStudent('phone');
  await signInAs(page, student.username, student.password);

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Erin' })).toBeVisible();
  await expectNoHorizontalScroll(page);
  await shot(page, 'home-phone');

  await page.goto('/classroom');
  await page.getByRole('textbox', { name: 'Search' }).fill(course.code);
  await expect(page.getByText('1 course', { exact: true })).toBeVisible();
  await expectNoHorizontalScroll(page);
  await shot(page, 'catalogue-phone');
  await page.getByRole('link', { name: course.title }).click();
  await page.getByRole('button', { name: 'Enrol', exact: true }).click();
  await expect(page.getByText('You are enrolled.')).toBeVisible();
  await expectNoHorizontalScroll(page);
  await shot(page, 'course-phone');

  await page.getByRole('link', { name: 'Start' }).click();
  await expect(page.getByRole('heading', { level: 1, name: lessons[0]!.title })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Reflectance' })).toBeVisible();
  await expectNoHorizontalScroll(page);
  await shot(page, 'lesson-phone');
  // The outline is a drawer on a phone.
  await page.getByRole('button', { name: 'Outline' }).click();
  const outline = page.getByRole('dialog', { name: 'Course outline' });
  await outline.getByRole('link', { name: /Fusing the splice/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Fusing the splice' })).toBeVisible();
  await expectNoHorizontalScroll(page);

  await page.goto(`/classroom/${course.id}?tab=assignments`);
  await page.getByRole('link', { name: 'Splice report' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Splice report' })).toBeVisible();
  await expect(page.getByText(/^Drop files here/)).toBeVisible();
  await expectNoHorizontalScroll(page);
  await shot(page, 'assignment-phone');

  await page.goto('/learning-management');
  await expect(page.getByRole('heading', { level: 1, name: 'Learning Management' })).toBeVisible();
  await expectNoHorizontalScroll(page);
  await shot(page, 'learning-phone');
});

test('phone: what is wider than the screen scrolls in its own box with a visible cue', async ({
  page,
}) => {
  test.slow();
  await signInAsRole(page, 'admin');
  // A list of records is cards on a phone, not a table cut off at the side.
  await page.goto('/admin');
  const users = page.getByRole('list', { name: 'Users & Roles' });
  await expect(users.getByRole('listitem').filter({ hasText: 'student' }).first()).toBeVisible();
  await expect(page.getByRole('table')).toHaveCount(0);
  // A table with more columns than fit shows its scroll bar without a hover.
  await page.goto('/admin/system');
  await expect(page.getByRole('table', { name: 'Storage' })).toBeVisible();
  const scrollbar = page.locator('.mantine-ScrollArea-scrollbar[data-orientation="horizontal"]');
  await expect(scrollbar.first()).toBeVisible();

  // A course's tabs: an arrow says there are more, and brings them into view.
  await page.goto('/classroom/otdr-trace-analysis');
  const more = page.getByRole('button', { name: "Scroll the course's tabs right" });
  // (A control with nothing to its side is transparent: data-hidden.)
  await expect(more).not.toHaveAttribute('data-hidden');
  await more.click();
  await expect(page.getByRole('tab', { name: 'Participants' })).toBeInViewport({ ratio: 1 });
  await expectNoHorizontalScroll(page);
});
