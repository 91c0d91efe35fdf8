/** Shows rich text the server stored and served (docs/adding-an-area.md "Rich text"). */
import { Typography, type TypographyProps } from '@mantine/core';
import './rich-text.css';

export interface RichTextViewProps extends Omit<TypographyProps, 'children'> {
  /** HTML as the API sent it: sanitised by the server before it was stored. */
  html: string;
}

/**
 * Renders server-sanitised HTML with the app's typography: images and video no wider than the
 * column, tables scrolling sideways on a phone.
 */
export function RichTextView({ html, className, ...others }: RichTextViewProps) {
  return (
    <Typography
      className={['rich-text-view', className].filter(Boolean).join(' ')}
      {...others}
      // The only place the app renders HTML: every *Html field went through the server's
      // allow-list sanitiser (sanitizeRichText) before it was stored, and the API serves only
      // that stored HTML (docs/adding-an-area.md "Rich text").
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
