/** The library: documents with versions, categories, the trash, and their text in the search. */
import type { AreaManifest } from '../../platform/areas';
import { registerLibraryJobs } from './library-jobs';
import { LIBRARY_ITEM, listItemIdsOfCourse } from './library-repository';
import { librarySearchScopes } from './library-search';
import { ExtractLibraryText, LibraryThumbnail } from './library-jobs';
import libraryRoutes from './routes';
import { seedDemoLibrary } from './seed';

export const libraryArea: AreaManifest = {
  name: 'library',
  async register(app, { db, now }) {
    registerLibraryJobs(app, db);
    await app.register(libraryRoutes, { db, now });
  },
  fileOwners: [LIBRARY_ITEM],
  jobs: [ExtractLibraryText.name, LibraryThumbnail.name],
  search: { types: ['library-item'], scopes: librarySearchScopes },
  courseContent: async (db, courseId) =>
    (await listItemIdsOfCourse(db, courseId)).map((id) => ({ type: LIBRARY_ITEM, id })),
  seed: (app, db, now) => seedDemoLibrary(app, db, now),
};
