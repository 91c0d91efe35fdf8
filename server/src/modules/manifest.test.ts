/**
 * Every area declares what it must (docs/adding-an-area.md): a manifest per folder under
 * server/src/modules, and declarations that match what the area really registers — its file
 * owners, its jobs, its search types — so the search, course deletion and the seed, which read
 * the manifests, miss nothing.
 */
import { readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SEARCH_TYPES } from '@learning-hub/core';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AreaManifest } from '../platform/areas';
import { createTestApp, type TestContext } from '../test/helpers';
import { AREAS } from '.';

const here = fileURLToPath(new URL('.', import.meta.url));
const folders = readdirSync(here).filter((name) => statSync(`${here}${name}`).isDirectory());

/** What each area registered on the app while it registered itself. */
const seen = new Map<string, { fileOwners: string[]; jobs: string[]; routes: string[] }>();

/** The area, recording what it registers (file owners, jobs, routes) under its name. */
function recording(area: AreaManifest): AreaManifest {
  return {
    ...area,
    async register(app: FastifyInstance, context) {
      const record = { fileOwners: [] as string[], jobs: [] as string[], routes: [] as string[] };
      seen.set(area.name, record);
      const { files, jobs } = app;
      const registerFileOwner = files.registerFileOwner.bind(files);
      const registerJob = jobs.register.bind(jobs);
      files.registerFileOwner = (type, owner) => {
        record.fileOwners.push(type);
        registerFileOwner(type, owner);
      };
      jobs.register = ((type, handler, options) => {
        record.jobs.push(type.name);
        registerJob(type, handler, options);
      }) as typeof jobs.register;
      let active = true;
      const hook = (route: { method: string | string[]; url: string }) => {
        if (active) record.routes.push(`${String(route.method)} ${route.url}`);
      };
      app.addHook('onRoute', hook);
      try {
        await area.register(app, context);
      } finally {
        files.registerFileOwner = registerFileOwner;
        jobs.register = registerJob;
        // Routes of later areas are not this one's.
        active = false;
      }
    },
  };
}

describe('area manifests', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ areas: AREAS.map(recording) });
  });
  afterAll(async () => ctx?.close());

  it('lists one manifest per folder of server/src/modules, named as its folder', () => {
    expect(AREAS.map((a) => a.name).sort()).toEqual([...folders].sort());
    expect(new Set(AREAS.map((a) => a.name)).size).toBe(AREAS.length);
  });

  it.each(AREAS.map((a) => [a.name, a] as const))(
    '%s declares the file owners and jobs it registers, and registers routes',
    (name, area) => {
      const record = seen.get(name);
      expect(record).toBeDefined();
      expect([...(record?.fileOwners ?? [])].sort()).toEqual([...area.fileOwners].sort());
      expect([...(record?.jobs ?? [])].sort()).toEqual([...area.jobs].sort());
      expect(record?.routes.length).toBeGreaterThan(0);
    },
  );

  it("declares every search type once, and only core's types", () => {
    const declared = AREAS.flatMap((a) => a.search?.types ?? []);
    expect([...declared].sort()).toEqual([...SEARCH_TYPES].sort());
  });

  it('gives the app the registry the platform asks', () => {
    expect(ctx.app.areas.list.map((a) => a.name)).toEqual(AREAS.map((a) => a.name));
    expect(ctx.app.areas.searchScopes()).toHaveLength(AREAS.filter((a) => a.search).length);
  });
});
