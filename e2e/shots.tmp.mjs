// Temporary: screenshots at 375 px of the changed pages (not committed).
import { chromium } from '@playwright/test';
const BASE = 'http://127.0.0.1:3460';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const context = await browser.newContext({ viewport: { width: 375, height: 740 }, baseURL: BASE });
const page = await context.newPage();
const login = await (await page.request.post('/api/auth/local', { data: { username: 'admin', password: 'admin-demo-pass' } })).json();
await page.addInitScript((v) => localStorage.setItem('learning-hub.session', v), JSON.stringify({ isAuthenticated: true, user: login.user, token: login.token, expiresAt: login.expiresAt }));
const auth = { Authorization: `Bearer ${login.token}` };
const items = await (await page.request.get('/api/library/items?pageSize=50', { headers: auth })).json();
const pdf = items.items.find((i) => i.file?.mime === 'application/pdf') ?? items.items.find((i) => i.file);
const wiki = await (await page.request.get('/api/wiki/pages?pageSize=5', { headers: auth })).json().catch(() => null);
const deps = await (await page.request.get('/api/departments', { headers: auth })).json().catch(() => null);
console.log('pdf', pdf?.id, pdf?.file?.mime, 'wiki', JSON.stringify(wiki)?.slice(0, 200), 'deps', JSON.stringify(deps)?.slice(0, 200));
const shots = process.argv.slice(2);
const wikiId = wiki?.pages?.[0]?.id;
for (const [name, spec] of shots.map((s) => s.split('='))) {
  const [url, selector] = spec.split('@');
  await page.goto(url.replace('PDF', pdf?.id ?? '').replace('WIKI', wikiId ?? ''));
  await page.waitForTimeout(4000);
  if (selector) {
    await page.getByText(selector, { exact: true }).first().scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, -70));
    await page.waitForTimeout(1500);
  }
  await page.screenshot({ path: `/tmp/webphone-shots/${name}.png`, fullPage: false });
  console.log('shot', name, await page.evaluate(() => [window.scrollY, document.documentElement.scrollWidth]));
}
await browser.close();
