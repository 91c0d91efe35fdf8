/**
 * Full-page navigation away from the app (an identity provider, Moodle's logout page). One object,
 * so tests can replace it: jsdom does not navigate.
 */
export const browserNavigation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};
