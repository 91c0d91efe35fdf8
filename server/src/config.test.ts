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
});
