/** `npm run db:migrate`: brings the configured database's schema up to date. */
import { ConfigError, loadConfig } from '../config';
import { migrateToLatest, openDatabase, withoutThreads } from '../platform/db';

try {
  const config = loadConfig();
  const database = openDatabase(withoutThreads(config.database));
  const applied = await migrateToLatest(database.db);
  console.log(
    applied.length ? `Applied: ${applied.join(', ')}` : 'The database schema is up to date.',
  );
  await database.close();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
