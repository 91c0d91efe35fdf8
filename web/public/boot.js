/* global window, document, MutationObserver */
// The first script of index.html, loaded with `async` ahead of the app's (docs/front-end.md "The
// shell before the app"). On the start page of someone signed in, the shell index.html draws
// gets the greeting the start page opens with (`Welcome, <first name>`, as home-page.tsx has it),
// read from the stored session, so the page's largest text is there with the first paint rather
// than after the app, its sign-in check and the page's code. The app's first render replaces the
// shell, greeting included. Plain JavaScript, not bundled: bundled, it would wait for the app.
(function () {
  'use strict';
  if (window.location.pathname !== '/') return;
  /** Puts the greeting in once the shell's heading is there; false until it is. */
  function greet() {
    var heading = document.getElementById('shell-greeting');
    if (!heading) return false;
    try {
      // core's STORAGE_KEYS.session
      var session = JSON.parse(window.localStorage.getItem('learning-hub.session') || 'null');
      var user = session && session.user;
      if (!user || typeof user.firstname !== 'string') return true;
      if (!(Date.parse(session.expiresAt) > Date.now())) return true;
      // A password change due first sends the user elsewhere: no greeting that would vanish.
      if (user.isDefaultPassword !== false || user.mustChangePassword !== false) return true;
      heading.textContent = 'Welcome, ' + user.firstname;
    } catch {
      // no storage, or not a session: no greeting
    }
    return true;
  }
  // Loaded early (in the head), it may run before the body is parsed.
  if (greet()) return;
  var observer = new MutationObserver(function () {
    if (greet()) observer.disconnect();
  });
  observer.observe(document.documentElement, { childList: true, subtree: true });
})();
