/** The wiki: spaces, pages with revisions, merges, links, templates and following. */
import type { AreaManifest } from '../../platform/areas';
import routes from './routes';
import { seedDemoWiki } from './seed';
import { listPageIdsOfCourse, WIKI_PAGE } from './wiki-repository';
import { wikiSearchScopes } from './wiki-search';

export const wikiArea: AreaManifest = {
  name: 'wiki',
  async register(app, { db, now }) {
    await app.register(routes, { db, now });
  },
  fileOwners: [WIKI_PAGE],
  jobs: [],
  search: { types: ['wiki-page'], scopes: wikiSearchScopes },
  courseContent: async (db, courseId) =>
    (await listPageIdsOfCourse(db, courseId)).map((id) => ({ type: WIKI_PAGE, id })),
  seed: (app, db, now) => seedDemoWiki(app, db, now),
};
