/** Locators and steps of the app shell, shared by the specs. */
import { expect, type Page } from '@playwright/test';

export async function fillSignIn(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel(/^Username/).fill(username);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The labels of the hamburger menu, in order; closes the menu again. */
export async function menuLabels(page: Page): Promise<string[]> {
  await page.getByRole('button', { name: 'Open navigation' }).click();
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav).toBeVisible();
  const labels = (await nav.getByRole('link').allInnerTexts()).map((t) => t.trim());
  await page.getByRole('button', { name: 'Close navigation' }).click();
  await expect(nav).toBeHidden();
  return labels;
}

export async function openAvatarMenu(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Account menu for / }).click();
}

export async function logout(page: Page): Promise<void> {
  await openAvatarMenu(page);
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
}
