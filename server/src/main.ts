/**
 * The server, started by the entry point (server.ts) once the Node.js line is known to be
 * supported: read the configuration, open and migrate the database, seed demo data on an empty
 * database, listen, and shut down gracefully on SIGINT/SIGTERM.
 */
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { migrateToLatest, openDatabase } from './platform/db';
import { seedDemo } from './seed';
import { applyAuthConfig, readAuthConfig } from './platform/auth/provider-config';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  let authFile;
  try {
    authFile = readAuthConfig(config.authConfig);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  const database = openDatabase(config.database);
  await migrateToLatest(database.db);
  const app = await buildApp({
    config,
    db: database.db,
    reads: database.reads,
    changes: database.changes,
  });
  if (config.seedDemo) {
    const added = await seedDemo(app, database.db);
    if (added.length > 0) app.log.info({ added }, 'seeded the demo data');
  }
  if (authFile) {
    const created = await applyAuthConfig(database.db, authFile, new Date().toISOString());
    if (created.length)
      app.log.info({ providers: created }, 'sign-in providers set up from the configuration');
  }
  if (config.devMode) {
    app.log.warn('DEV MODE: sign-in is disabled and every request is the built-in developer admin');
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { database: database.kind, port: config.port, node: process.version },
    `Learning Hub (Node ${process.version}) is listening on http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Learning Hub failed to start: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
