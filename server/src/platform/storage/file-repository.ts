/** All SQL about stored files (the `files` table); the bytes are the FileStore's business. */
import type { StoredFile } from '@learning-hub/core';
import type { Selectable } from 'kysely';
import type { Db } from '../db';
import type { FilesTable } from '../db/schema';

export type FileRow = Selectable<FilesTable>;

/** A file's row as the service uses it (size as a number on both databases). */
export interface FileRecord {
  id: string;
  storageKey: string;
  name: string;
  mime: string;
  size: number;
  sha256: string;
  uploadedBy: string;
  createdAt: string;
  ownerType: string | null;
  ownerId: string | null;
  attachedAt: string | null;
  thumbnailKey: string | null;
}

function toRecord(row: FileRow): FileRecord {
  return {
    id: row.id,
    storageKey: row.storage_key,
    name: row.original_name,
    mime: row.mime,
    size: Number(row.size),
    sha256: row.sha256,
    uploadedBy: row.uploaded_by,
    createdAt: row.created_at,
    ownerType: row.owner_type,
    ownerId: row.owner_id,
    attachedAt: row.attached_at,
    thumbnailKey: row.thumbnail_key,
  };
}

/** The API's view of a file. */
export function toStoredFile(file: FileRecord): StoredFile {
  return {
    id: file.id,
    name: file.name,
    mime: file.mime,
    size: file.size,
    sha256: file.sha256,
    uploadedBy: file.uploadedBy,
    createdAt: file.createdAt,
    owner:
      file.ownerType !== null && file.ownerId !== null
        ? { type: file.ownerType, id: file.ownerId }
        : null,
    attachedAt: file.attachedAt,
    hasThumbnail: file.thumbnailKey !== null,
  };
}

export async function insertFile(
  db: Db,
  file: Omit<FileRecord, 'ownerType' | 'ownerId' | 'attachedAt'>,
): Promise<FileRecord> {
  await db
    .insertInto('files')
    .values({
      id: file.id,
      storage_key: file.storageKey,
      original_name: file.name,
      mime: file.mime,
      size: file.size,
      sha256: file.sha256,
      uploaded_by: file.uploadedBy,
      created_at: file.createdAt,
      owner_type: null,
      owner_id: null,
      attached_at: null,
      thumbnail_key: file.thumbnailKey,
    })
    .execute();
  return { ...file, ownerType: null, ownerId: null, attachedAt: null };
}

export async function findFile(db: Db, id: string): Promise<FileRecord | null> {
  const row = await db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toRecord(row) : null;
}

/** The files attached to one thing, oldest first. */
export async function listFilesOf(
  db: Db,
  ownerType: string,
  ownerId: string,
): Promise<FileRecord[]> {
  const rows = await db
    .selectFrom('files')
    .selectAll()
    .where('owner_type', '=', ownerType)
    .where('owner_id', '=', ownerId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toRecord);
}

/**
 * Attaches a file to a thing in one conditional UPDATE: only a file that is still unattached and
 * was uploaded by `uploadedBy`. Two attaches of the same file race on the row; exactly one wins.
 */
export async function attachFile(
  db: Db,
  change: { id: string; uploadedBy: string; ownerType: string; ownerId: string },
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable('files')
    .set({ owner_type: change.ownerType, owner_id: change.ownerId, attached_at: at })
    .where('id', '=', change.id)
    .where('uploaded_by', '=', change.uploadedBy)
    .where('owner_type', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Deletes the row of an unattached file, only if it is still unattached (and, when given, still
 * the uploader's): the claim that lets exactly one caller remove its objects.
 */
export async function deleteUnattachedFile(
  db: Db,
  id: string,
  uploadedBy?: string,
): Promise<boolean> {
  let query = db.deleteFrom('files').where('id', '=', id).where('owner_type', 'is', null);
  if (uploadedBy !== undefined) query = query.where('uploaded_by', '=', uploadedBy);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Deletes the row of a file whatever it belongs to (the owner is going away). */
export async function deleteFileRow(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('files').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Unattached files created before `before`, oldest first. */
export async function listOrphans(db: Db, before: string, limit: number): Promise<FileRecord[]> {
  const rows = await db
    .selectFrom('files')
    .selectAll()
    .where('owner_type', 'is', null)
    .where('created_at', '<', before)
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map(toRecord);
}

/** Sets a stored file's thumbnail when it has none (a PDF's first page, made by a job); false when it had one. */
export async function setFileThumbnail(db: Db, fileId: string, key: string): Promise<boolean> {
  const result = await db
    .updateTable('files')
    .set({ thumbnail_key: key })
    .where('id', '=', fileId)
    .where('thumbnail_key', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
