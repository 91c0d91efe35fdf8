/**
 * Every migration, in order, imported statically so the bundled server carries them. One set of
 * migrations serves SQLite and PostgreSQL.
 */
import type { Migration, MigrationProvider } from 'kysely/migration';
import * as m0001 from './0001-initial';
import * as m0002 from './0002-access-model';
import * as m0003 from './0003-sign-in-providers';
import * as m0004 from './0004-sign-in-hardening';
import * as m0005 from './0005-files';
import * as m0006 from './0006-classroom';
import * as m0007 from './0007-course-code-any-case';
import * as m0008 from './0008-enrolment-blocks';
import * as m0009 from './0009-upload-quotas';
import * as m0010 from './0010-assignment-release-on-save';
import * as m0011 from './0011-submissions-recent-index';
import * as m0012 from './0012-jobs';
import * as m0013 from './0013-search';
import * as m0014 from './0014-library';
import * as m0015 from './0015-library-list-index';
import * as m0016 from './0016-search-scope-index';
import * as m0017 from './0017-search-scope-tokens';
import * as m0018 from './0018-wiki-and-departments';
import * as m0019 from './0019-department-indexes';
import * as m0020 from './0020-system-settings';
import * as m0021 from './0021-revisions';
import * as m0022 from './0022-user-settings';
import * as m0023 from './0023-notifications';
import * as m0024 from './0024-announcements';

const MIGRATIONS: Record<string, Migration> = {
  '0001-initial': m0001,
  '0002-access-model': m0002,
  '0003-sign-in-providers': m0003,
  '0004-sign-in-hardening': m0004,
  '0005-files': m0005,
  '0006-classroom': m0006,
  '0007-course-code-any-case': m0007,
  '0008-enrolment-blocks': m0008,
  '0009-upload-quotas': m0009,
  '0010-assignment-release-on-save': m0010,
  '0011-submissions-recent-index': m0011,
  '0012-jobs': m0012,
  '0013-search': m0013,
  '0014-library': m0014,
  '0015-library-list-index': m0015,
  '0016-search-scope-index': m0016,
  '0017-search-scope-tokens': m0017,
  '0018-wiki-and-departments': m0018,
  '0019-department-indexes': m0019,
  '0020-system-settings': m0020,
  '0021-revisions': m0021,
  '0022-user-settings': m0022,
  '0023-notifications': m0023,
  '0024-announcements': m0024,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};
