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

/**
 * Goes to `url` inside the running app, as a link would (history + popstate: the router renders
 * the route, its guard decides), without loading the page again. Walks over many routes use it
 * after one real page load; what a direct load of a URL does is the same for every route and is
 * checked by the walks' first page and by the specs that `goto` a page.
 */
export async function navigateInApp(page: Page, url: string): Promise<void> {
  await page.evaluate((to) => {
    // An entry of its own, as the router makes one (a key, the next index): the router's scroll
    // restoration keeps positions by key, and an entry without one would take the first page's.
    const previous = (window.history.state ?? {}) as { idx?: number };
    const state = {
      usr: null,
      key: Math.random().toString(36).slice(2, 10),
      idx: (previous.idx ?? 0) + 1,
    };
    window.history.pushState(state, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state }));
  }, url);
}
