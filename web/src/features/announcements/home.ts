/**
 * What the announcements contribute to the start page (features/home/home-sections.ts): their
 * section, first of all, for everyone signed in. Light on purpose (it loads with the start page):
 * the section's component is a chunk of its own, its first list is asked for beside it.
 */
import type { HomeSectionContribution } from '../home/home-sections';
import { announcementsQuery, HOME_ANNOUNCEMENTS } from './api/announcements-api';

export const announcementsHomeSection: HomeSectionContribution = {
  id: 'announcements',
  shows: () => true,
  load: () =>
    import('./components/announcements-home-section').then((m) => m.AnnouncementsHomeSection),
  query: () => announcementsQuery(HOME_ANNOUNCEMENTS),
};
