import type { HighlightedText as Highlighted } from '@learning-hub/core';
import { Fragment } from 'react';

/**
 * Text with the ranges a search matched in <mark>. The server sends plain text and offsets, so
 * nothing stored is ever rendered as HTML here.
 */
export function HighlightedText({ value }: { value: Highlighted }) {
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (const [start, end] of value.highlights) {
    if (start < at || end <= start || end > value.text.length) continue;
    if (start > at) parts.push(value.text.slice(at, start));
    parts.push(<mark key={start}>{value.text.slice(start, end)}</mark>);
    at = end;
  }
  if (at < value.text.length) parts.push(value.text.slice(at));
  return <Fragment>{parts}</Fragment>;
}
