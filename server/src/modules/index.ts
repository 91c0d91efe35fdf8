/**
 * Every area of the product, in the order the app registers them (docs/architecture.md, "Areas
 * and the platform"). A new area adds its manifest here; modules/manifest.test.ts checks it.
 */
import type { AreaManifest } from '../platform/areas';
import { accessAdminArea } from './access-admin/manifest';
import { accountsArea } from './accounts/manifest';
import { announcementsArea } from './announcements/manifest';
import { assignmentsArea } from './assignments/manifest';
import { coursesArea } from './courses/manifest';
import { departmentsArea } from './departments/manifest';
import { libraryArea } from './library/manifest';
import { settingsArea } from './settings/manifest';
import { systemArea } from './system/manifest';
import { wikiArea } from './wiki/manifest';

export const AREAS: readonly AreaManifest[] = [
  accountsArea,
  accessAdminArea,
  systemArea,
  coursesArea,
  assignmentsArea,
  departmentsArea,
  libraryArea,
  wikiArea,
  settingsArea,
  announcementsArea,
];
