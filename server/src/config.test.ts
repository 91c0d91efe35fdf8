import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('config', () => {
  it('defaults to the embedded SQLite database on port 3000 with demo data', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      nodeEnv: 'development',
      port: 3000,
      database: { kind: 'sqlite', path: './data/learning-hub.db' },
      seedDemo: true,
      trustProxy: false,
    });
  });

  it('uses PostgreSQL when DATABASE_URL is set', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@db:5432/hub' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@db:5432/hub',
    });
  });

  it('parses booleans and proxy settings', () => {
    expect(loadConfig({ SEED_DEMO: 'false' }).seedDemo).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.0.0.2' }).trustProxy).toEqual([
      '10.0.0.1',
      '10.0.0.2',
    ]);
  });

  it('lists every bad variable at once', () => {
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        SEED_DEMO: 'maybe',
        LOG_LEVEL: 'loud',
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      for (const name of ['PORT', 'DATABASE_URL', 'SEED_DEMO', 'LOG_LEVEL']) {
        expect(problems).toContain(name);
      }
      expect((error as ConfigError).problems).toHaveLength(4);
    }
  });

  it('stores files next to the SQLite file by default, or in S3 when a bucket is named', () => {
    expect(loadConfig({}).files).toMatchObject({
      store: { kind: 'local', dir: 'data/files' },
      maxUploadBytes: 104_857_600,
    });
    expect(loadConfig({ SQLITE_PATH: '/srv/hub/hub.db' }).files.store).toEqual({
      kind: 'local',
      dir: '/srv/hub/files',
    });
    expect(loadConfig({ DATABASE_URL: 'postgres://u@db/hub' }).files.store).toEqual({
      kind: 'local',
      dir: './data/files',
    });
    expect(
      loadConfig({
        S3_BUCKET: 'hub-files',
        S3_ENDPOINT: 'http://minio:9000',
        S3_ACCESS_KEY_ID: 'key',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: 'true',
        UPLOAD_MAX_BYTES: '2048',
      }).files,
    ).toEqual({
      store: {
        kind: 's3',
        bucket: 'hub-files',
        endpoint: 'http://minio:9000',
        region: 'us-east-1',
        credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
        forcePathStyle: true,
      },
      maxUploadBytes: 2048,
      maxResumableBytes: 5 * 1024 ** 3,
      stagingDir: './data/uploads',
      limits: {
        maxFileBytes: 2048,
        maxUnattachedBytes: 5 * 1024 ** 3,
        maxStoredBytes: 20 * 1024 ** 3,
        rate: { uploads: 60, windowSeconds: 600 },
        unattachedHours: 24,
      },
    });
  });

  it('has per-person upload limits with defaults, and refuses limits that cannot work', () => {
    expect(loadConfig({}).files.limits).toEqual({
      maxFileBytes: 100 * 1024 ** 2,
      // A resumable upload of the largest size (5 GB) fits; a library of them too.
      maxUnattachedBytes: 5 * 1024 ** 3,
      maxStoredBytes: 20 * 1024 ** 3,
      rate: { uploads: 60, windowSeconds: 600 },
      unattachedHours: 24,
    });
    expect(
      loadConfig({
        UPLOAD_MAX_BYTES: '4096',
        UPLOAD_USER_MAX_UNATTACHED_BYTES: '8192',
        UPLOAD_USER_MAX_STORED_BYTES: '65536',
        UPLOAD_RATE_LIMIT: '5',
        UPLOAD_RATE_WINDOW_SECONDS: '60',
        UPLOAD_UNATTACHED_HOURS: '2',
      }).files.limits,
    ).toEqual({
      maxFileBytes: 4096,
      maxUnattachedBytes: 8192,
      maxStoredBytes: 65536,
      rate: { uploads: 5, windowSeconds: 60 },
      unattachedHours: 2,
    });
    // A larger per-file limit raises the default unattached allowance with it, and the total.
    expect(loadConfig({ UPLOAD_MAX_BYTES: String(2 * 1024 ** 3) }).files.limits).toMatchObject({
      maxUnattachedBytes: 10 * 1024 ** 3,
      maxStoredBytes: 20 * 1024 ** 3,
    });
    expect(
      loadConfig({ UPLOAD_MAX_BYTES: String(8 * 1024 ** 3), UPLOAD_RESUMABLE_MAX_BYTES: '4096' })
        .files.limits,
    ).toMatchObject({ maxUnattachedBytes: 40 * 1024 ** 3, maxStoredBytes: 40 * 1024 ** 3 });
    expect(
      loadConfig({ UPLOAD_RESUMABLE_MAX_BYTES: String(8 * 1024 ** 3) }).files.limits,
    ).toMatchObject({ maxUnattachedBytes: 8 * 1024 ** 3 });
    expect(loadConfig({ FILES_DIR: '/srv/files' }).files.stagingDir).toBe('/srv/files/uploads');
    expect(() =>
      loadConfig({ UPLOAD_MAX_BYTES: '8192', UPLOAD_USER_MAX_UNATTACHED_BYTES: '4096' }),
    ).toThrow(/UPLOAD_USER_MAX_UNATTACHED_BYTES: must be at least UPLOAD_MAX_BYTES/);
    expect(() =>
      loadConfig({
        UPLOAD_USER_MAX_UNATTACHED_BYTES: String(600 * 1024 ** 2),
        UPLOAD_USER_MAX_STORED_BYTES: String(200 * 1024 ** 2),
      }),
    ).toThrow(/UPLOAD_USER_MAX_STORED_BYTES: must be at least UPLOAD_USER_MAX_UNATTACHED_BYTES/);
    expect(() => loadConfig({ UPLOAD_RATE_WINDOW_SECONDS: '7200' })).toThrow(
      /UPLOAD_RATE_WINDOW_SECONDS/,
    );
    expect(() => loadConfig({ UPLOAD_RATE_LIMIT: '0' })).toThrow(/UPLOAD_RATE_LIMIT/);
  });

  it('refuses incomplete S3 settings', () => {
    expect(() => loadConfig({ S3_ENDPOINT: 'http://minio:9000' })).toThrow(/S3_BUCKET/);
    expect(() => loadConfig({ S3_BUCKET: 'hub', S3_ACCESS_KEY_ID: 'key' })).toThrow(
      /S3_SECRET_ACCESS_KEY/,
    );
    expect(() => loadConfig({ S3_BUCKET: 'hub', FILES_DIR: '/x' })).toThrow(/FILES_DIR/);
    expect(() => loadConfig({ UPLOAD_MAX_BYTES: '-1' })).toThrow(/UPLOAD_MAX_BYTES/);
  });

  it('sends no email without SMTP_URL, and takes only an SMTP URL and a sender with an address', () => {
    expect(loadConfig({}).email).toEqual({
      url: null,
      from: 'Learning Hub <no-reply@localhost>',
      digestHour: 6,
    });
    expect(loadConfig({ MAIL_DIGEST_HOUR: '18' }).email.digestHour).toBe(18);
    expect(
      loadConfig({
        SMTP_URL: 'smtps://hub:secret@mail.example.com:465',
        MAIL_FROM: 'hub@example.com',
      }).email,
    ).toMatchObject({ url: 'smtps://hub:secret@mail.example.com:465', from: 'hub@example.com' });
    expect(loadConfig({ SMTP_URL: '' }).email.url).toBeNull();
    expect(loadConfig({ MAIL_FROM: 'Training <training@fiberco.example>' }).email.from).toBe(
      'Training <training@fiberco.example>',
    );
    try {
      loadConfig({ SMTP_URL: 'http://mail.example.com', MAIL_FROM: 'nobody' });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'SMTP_URL: must be an smtp:// or smtps:// URL with a host',
        expect.stringMatching(/^MAIL_FROM: must be an address/),
      ]);
    }
    expect(() => loadConfig({ SMTP_URL: 'smtp://' })).toThrow(/SMTP_URL/);
  });
});
