/**
 * What the library gives the pages that compose other areas' parts (the department page; the
 * dashboard the same way), through public.ts: a department's items for one viewer.
 */
import type { LibraryItemKind } from '@learning-hub/core';
import type { AccessService } from '../../platform/access/access-service';
import type { UserRecord } from '../../platform/auth/user-repository';
import type { Db } from '../../platform/db';
import { libraryViewerOf } from './library-access';
import { listItems } from './library-repository';

/** A department's items as a page beside the department shows them. */
export interface DepartmentItems {
  /** The latest changed first. */
  items: { id: string; title: string; kind: LibraryItemKind; updatedAt: string }[];
  /** How many items of the department the viewer may see. */
  total: number;
}

/**
 * The items of the department `user` may see (the library's visibility rule), the latest
 * changed `limit` of them, and how many there are.
 */
export async function itemsOfDepartment(
  db: Db,
  access: AccessService,
  user: UserRecord,
  departmentId: string,
  now: number,
  limit: number,
): Promise<DepartmentItems> {
  const { items, total } = await listItems(db, {
    viewer: libraryViewerOf(access, user, now),
    trash: false,
    departmentId,
    mine: false,
    sort: 'updated',
    order: 'desc',
    offset: 0,
    limit,
  });
  return {
    items: items.map((i) => ({ id: i.id, title: i.title, kind: i.kind, updatedAt: i.updatedAt })),
    total,
  };
}
