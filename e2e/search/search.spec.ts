import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations, signInAsRole, uniqueName } from '../support/fixtures';
import {
  buildCourse,
  expectNoHorizontalScroll,
  instructorApi,
} from '../classroom/classroom-fixtures';

test.use({ viewport: { width: 375, height: 740 } });

test('search: on a phone, Ctrl+K finds a lesson with its highlight, Enter opens it, and all results are a page away', async ({
  page,
  request,
}) => {
  test.slow();
  const word = uniqueName('zq').replace(/[^a-z0-9]/gi, '');
  const { course, lessons } = await buildCourse(await instructorApi(request), {
    title: `Aerial ${word} splicing`,
    lessons: [
      {
        section: 0,
        title: `Lashing the ${word} strand`,
        bodyHtml: `<p>Before lashing, check the <strong>${word}</strong> clamp twice.</p>`,
      },
    ],
  });
  await signInAsRole(page, 'instructor');
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Search (Ctrl+K)' })).toBeVisible();

  await page.keyboard.press('Control+k');
  const dialog = page.getByRole('dialog');
  const box = dialog.getByRole('textbox', {
    name: 'Search courses, lessons, the library and the wiki',
  });
  await expect(box).toBeFocused();
  await box.fill(word.slice(0, 8));
  const lessonResult = dialog.getByRole('button', { name: new RegExp(`^Lesson Lashing`) });
  await expect(lessonResult).toBeVisible();
  await expect(lessonResult.locator('mark').first()).toBeVisible();
  await expect(dialog.getByRole('button', { name: /^Course Aerial/ })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // Arrow keys walk the results (ranked: which comes first is the ranking's choice).
  for (let i = 0; i < 3 && (await lessonResult.getAttribute('data-selected')) === null; i += 1) {
    await box.press('ArrowDown');
  }
  await expect(lessonResult).toHaveAttribute('data-selected', 'true');
  await box.press('Enter');
  await expect(page).toHaveURL(
    new RegExp(`/classroom/${course.id}/lessons/${lessons[0]?.id ?? 'missing'}$`),
  );

  await page.getByRole('button', { name: 'Search (Ctrl+K)' }).click();
  await page.getByRole('dialog').getByRole('textbox').fill(`"${word}"* -(`);
  await expect(
    page.getByRole('dialog').getByRole('button', { name: /See all 2 results/ }),
  ).toBeVisible();
  await page.getByRole('dialog').getByRole('textbox').press('Enter');
  await expect(page).toHaveURL(/\/search\?q=/);
  await expect(page.getByRole('heading', { level: 1, name: 'Search' })).toBeVisible();
  await expect(page.getByText(/2 results for/)).toBeVisible();
  await expectNoHorizontalScroll(page);
  await expectNoSeriousA11yViolations(page);
});
