/**
 * Settling a save refused with 409 WIKI_EDIT_CONFLICT (docs/wiki.md): the server's details, and
 * the merged HTML once each conflicting block has a choice.
 */
import { WikiConflictSchema, type WikiConflict } from '@learning-hub/core';
import { errorCode, isClientError } from '../../../lib/api-client';

/** The conflict a failed save carries, or null when the failure was something else. */
export function conflictOf(error: unknown): WikiConflict | null {
  if (errorCode(error) !== 'WIKI_EDIT_CONFLICT' || !isClientError(error)) return null;
  const parsed = WikiConflictSchema.safeParse(error.details);
  return parsed.success ? parsed.data : null;
}

/** What to keep of one conflicting block. */
export type MergeChoice = 'mine' | 'theirs' | 'both';

type Block = WikiConflict['merge']['blocks'][number];

/**
 * The merged page: merged blocks as they are, each conflict as chosen ("both" keeps theirs, which
 * was saved first, then mine), joined. Null while a conflict has no choice yet.
 */
export function mergedHtml(
  blocks: readonly Block[],
  choices: ReadonlyMap<number, MergeChoice>,
): string | null {
  const parts: string[] = [];
  for (const [index, block] of blocks.entries()) {
    if (block.kind === 'merged') {
      parts.push(block.html);
      continue;
    }
    const choice = choices.get(index);
    if (!choice) return null;
    parts.push(
      choice === 'mine'
        ? block.mine
        : choice === 'theirs'
          ? block.theirs
          : block.theirs + block.mine,
    );
  }
  return parts.join('');
}
