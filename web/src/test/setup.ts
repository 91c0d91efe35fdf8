import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { liveClient } from '../lib/live/use-live';
import { resetDisplaySettings } from '../lib/settings/display-settings';

// No live channel in component tests (there is no server to connect to): the client stays idle.
// Its behaviour is tested against a real server (server/src/platform/live) and in the browser
// (e2e/notifications).
// (An own property, not a spy: the suite restores spies after each test.)
liveClient.start = () => Promise.resolve();

// findBy*/waitFor give up after 5 s instead of 1 s: lazily loaded pages on a busy machine (two
// cores shared with other test runs) can take longer than a second to appear.
configure({ asyncUtilTimeout: 5000 });

// The shell's parts that load when first needed (docs/front-end.md): loaded once here, so that a
// test's first notification, menu or choice does not spend its waiting time compiling them.
await Promise.all([
  import('../app/notifications-container'),
  import('../app/layout/nav-menu'),
  import('../app/layout/avatar-menu'),
  import('../components/lazy-select-impl'),
]);

// jsdom lacks these browser APIs, which Mantine uses. The user asks for reduced motion, as the
// browser tests do (e2e/playwright.config.ts): the theme respects it, so modals, menus and
// choices open and close at once instead of after a transition each test would wait for. Every
// other query (the phone breakpoints) does not match: a desktop-sized screen.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  configurable: true,
  value: (query: string): MediaQueryList => ({
    matches: /prefers-reduced-motion:\s*reduce/.test(query),
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }),
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub;
// Mantine's autosizing Textarea listens to font loading.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: { addEventListener: () => undefined, removeEventListener: () => undefined },
  });
}
window.HTMLElement.prototype.scrollIntoView = () => undefined;
window.scrollTo = () => undefined;

afterEach(() => {
  cleanup();
  // The notifications store lives in the module: empty it between tests.
  notifications.clean();
  notifications.cleanQueue();
  window.localStorage.clear();
  // The settings in force live in a module (lib/settings/display-settings.ts), and the applier
  // marks the document: back to the defaults between tests.
  resetDisplaySettings();
  delete document.documentElement.dataset.reducedMotion;
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
