/**
 * The demo library (seed-library-content.ts), stored the way a person adds items: each file is
 * uploaded into the shared storage as its demo user and the item is created through the library's
 * service, so the text-extraction and thumbnail jobs run for the PDFs as they would for anyone's.
 * Only when the library is empty.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { LibraryScope } from '@learning-hub/core';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { getRolesVersion } from '../../platform/access/access-repository';
import { findUserByUsername } from '../../platform/auth/user-repository';
import { findDepartment } from '../../platform/auth/departments';
import { findCourseRecord } from '../courses/public';
import { DEMO_ASSETS_DIR } from '../../demo-assets';
import type { Db } from '../../platform/db';
import { libraryViewerOf } from './library-access';
import { insertCategory, listCategoryNames } from './library-repository';
import { createItemFor } from './library-service';
import { makeSamplePdf } from '../../platform/storage/sample-pdf';
import {
  DEMO_LIBRARY,
  DEMO_LIBRARY_CATEGORIES,
  type DemoLibraryItem,
  type DemoScope,
} from './seed-content';

/** The bytes of a demo item's file. */
async function fileOf(item: Exclude<DemoLibraryItem, { kind: 'link' }>): Promise<Buffer> {
  if (item.kind === 'pdf') return Buffer.from(await makeSamplePdf(item.title, item.paragraphs));
  if (item.kind === 'video') return readFile(join(DEMO_ASSETS_DIR, item.source));
  return sharp(Buffer.from(item.source)).png().toBuffer();
}

async function scopeOf(db: Db, scope: DemoScope): Promise<LibraryScope | null> {
  if (scope.type === 'everyone') return scope;
  if (scope.type === 'department') {
    const department = await findDepartment(db, scope.department);
    return department ? { type: 'department', departmentId: department.id } : null;
  }
  return (await findCourseRecord(db, scope.courseId))
    ? { type: 'course', courseId: scope.courseId }
    : null;
}

/** Seeds the demo library when it has no items; returns whether it did. */
export async function seedDemoLibrary(
  app: Pick<FastifyInstance, 'access' | 'files' | 'jobs'>,
  db: Db,
  now: Date = new Date(),
): Promise<boolean> {
  const existing = await db
    .selectFrom('library_items')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(existing.n) > 0) return false;
  const at = now.toISOString();
  const known = new Map((await listCategoryNames(db)).map((c) => [c.name, c.id]));
  for (const name of DEMO_LIBRARY_CATEGORIES) {
    if (!known.has(name)) known.set(name, (await insertCategory(db, name, at)).id);
  }
  const rolesVersion = await getRolesVersion(db);
  let added = 0;
  for (const item of DEMO_LIBRARY) {
    const user = await findUserByUsername(db, item.addedBy);
    const scope = await scopeOf(db, item.scope);
    if (!user || !scope) continue;
    await app.access.ensureUser(user, rolesVersion);
    let fileId: string | undefined;
    if (item.kind !== 'link') {
      const bytes = await fileOf(item);
      const stored = await app.files.upload(user, Readable.from(bytes), {
        name: item.fileName,
        maxBytes: bytes.length,
        declaredBytes: bytes.length,
      });
      fileId = stored.id;
    }
    await createItemFor(
      { db, access: app.access, files: app.files, jobs: app.jobs },
      {
        body: {
          title: item.title,
          descriptionHtml: item.description,
          tags: item.tags,
          categoryId: known.get(item.category) ?? null,
          scope,
          ...(fileId ? { fileId } : { url: item.kind === 'link' ? item.url : '' }),
        },
        user,
        viewer: libraryViewerOf(app.access, user, now.getTime()),
        now: now.getTime(),
      },
    );
    added += 1;
  }
  return added > 0;
}
