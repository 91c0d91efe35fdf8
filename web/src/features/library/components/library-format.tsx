/** Small display helpers of the library: kinds, scopes, the file of an item. */
import type { LibraryItemKind, LibraryItemSummary, LibraryScope } from '@learning-hub/core';
import {
  IconFileText,
  IconHeadphones,
  IconLink,
  IconMovie,
  IconPhoto,
  type IconProps,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';

export const KIND_LABELS: Record<LibraryItemKind, string> = {
  document: 'Document',
  video: 'Video',
  audio: 'Audio',
  image: 'Image',
  link: 'Link',
};

const KIND_ICONS: Record<LibraryItemKind, ComponentType<IconProps>> = {
  document: IconFileText,
  video: IconMovie,
  audio: IconHeadphones,
  image: IconPhoto,
  link: IconLink,
};

/** The kind's icon with its name as the accessible label. */
export function KindIcon({ kind, size = 20 }: { kind: LibraryItemKind; size?: number }) {
  const Icon = KIND_ICONS[kind];
  // Never squeezed by a long title beside it.
  return (
    <Icon
      size={size}
      role="img"
      aria-label={KIND_LABELS[kind]}
      stroke={1.6}
      style={{ flexShrink: 0 }}
    />
  );
}

export const SCOPE_TYPE_LABELS: Record<LibraryScope['type'], string> = {
  everyone: 'Everyone',
  department: 'Department',
  course: 'Course',
};

/** Who sees the item, in words. */
export function scopeText(item: Pick<LibraryItemSummary, 'scope' | 'scopeLabel'>): string {
  if (item.scope.type === 'everyone') return 'Everyone';
  const what = item.scope.type === 'department' ? 'Department' : 'Course';
  return item.scopeLabel ? `${what}: ${item.scopeLabel}` : what;
}

/** A file name without its extension (the default title of an uploaded file). */
export function titleFromFileName(name: string): string {
  const dot = name.lastIndexOf('.');
  const base = dot > 0 ? name.slice(0, dot) : name;
  return base.trim() || name;
}
