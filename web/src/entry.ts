/**
 * The page's entry: index.html's shell (and the start page's greeting) paints first, then the
 * app loads. Requested before that paint, the app's ~250 kB of modules would compete with it on a
 * slow connection and, once arrived, run ahead of it on a slow phone (docs/front-end.md "The
 * shell before the app"). A tab opened in the background never paints until shown: it loads at
 * once.
 */
const load = () => void import('./main');

if (document.visibilityState === 'hidden') load();
else requestAnimationFrame(() => setTimeout(load, 0));
