/**
 * The area manifest: what an area of the product (a folder under server/src/modules) declares so
 * the app can register it, and the registry the areas reach each other's shared duties through.
 * The platform imports no area; `server/src/modules/index.ts` lists the areas and `buildApp`
 * registers them (docs/architecture.md, "Areas and the platform"; docs/adding-an-area.md).
 */
import type { SearchType } from '@learning-hub/core';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config';
import type { AccessService } from './access/access-service';
import type { UserRecord } from './auth/user-repository';
import type { Db } from './db';
import type { ChangeTracker } from './db/change-tracker';
import type { SearchScope } from './search/search-index';

/** What every area's registration receives. */
export interface AreaContext {
  config: AppConfig;
  db: Db;
  /** The clock, in epoch ms (tests move it). */
  now: () => number;
  /** Tells caches when tables change; null where nothing caches. */
  changes: ChangeTracker | null;
}

/** The SQL scopes of the search types an area indexes: what `user` may open, filtered in the query. */
export type SearchScopeBuilder = (
  db: Db,
  access: AccessService,
  user: UserRecord,
  now: number,
) => SearchScope[];

/** A thing that owns stored files (`app.files`), named by its owner type and id. */
export interface FileOwnerRef {
  type: string;
  id: string;
}

/**
 * One area. Every field is declared, empty where the area has none, so the manifest test
 * (modules/manifest.test.ts) can hold each declaration against what the area really registers.
 */
export interface AreaManifest {
  /** The area's folder name under server/src/modules. */
  name: string;
  /** Registers the area's routes, file owners and jobs on the app (in this order of areas). */
  register(app: FastifyInstance, context: AreaContext): Promise<void>;
  /** The owner types of files the area registers with `app.files`. */
  fileOwners: readonly string[];
  /** The names of the background jobs the area registers with `app.jobs`. */
  jobs: readonly string[];
  /** The search types the area indexes (core's SEARCH_TYPES), with their scopes; null: none. */
  search: { types: readonly SearchType[]; scopes: SearchScopeBuilder } | null;
  /**
   * The area's things inside a course, whose files go when the course is deleted (their rows go
   * with the course by cascade); null: the area keeps nothing inside courses.
   */
  courseContent: ((db: Db, courseId: string) => Promise<FileOwnerRef[]>) | null;
  /**
   * Adds the area's demo data when it has none (`npm start` with the demo seed); returns whether
   * it added any. Runs after the accounts, departments and courses of the base seed.
   */
  seed: ((app: FastifyInstance, db: Db, now: Date) => Promise<boolean>) | null;
}

/** The registered areas, as the platform and the areas ask them (`app.areas`). */
export class AreaRegistry {
  constructor(readonly list: readonly AreaManifest[]) {}

  /** Every search scope builder, from every area that indexes something. */
  searchScopes(): SearchScopeBuilder[] {
    return this.list.flatMap((area) => (area.search ? [area.search.scopes] : []));
  }

  /** The file owners of every area's things inside the course (for deleting the course). */
  async courseContent(db: Db, courseId: string): Promise<FileOwnerRef[]> {
    const found = await Promise.all(
      this.list.map((area) => (area.courseContent ? area.courseContent(db, courseId) : [])),
    );
    return found.flat();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The registered areas (platform/areas.ts): search scopes, course contents, seeds. */
    areas: AreaRegistry;
  }
}
