/**
 * A page's body through the one reader (RichTextView). Links to other wiki pages
 * (`/wiki/pages/<id>`, `/wiki/go?…`) open inside the app instead of loading it again; links the
 * server marked `wiki-link-missing` are styled by rich-text.css.
 */
import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import { RichTextView } from '../../../components/rich-text/rich-text-view';
import './wiki.css';

const IN_APP = /^\/wiki\/(pages\/[^/?#]+|go\?)/;

export function WikiContent({ html }: { html: string }) {
  const navigate = useNavigate();
  // One listener for every link of the body (a link's click is also its Enter key).
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = (event.target as Element).closest('a');
    if (!anchor || (anchor.target && anchor.target !== '_self')) return;
    const href = anchor.getAttribute('href') ?? '';
    if (!IN_APP.test(href)) return;
    event.preventDefault();
    void navigate(href);
  };
  return (
    <div onClick={onClick}>
      <RichTextView html={html} className="wiki-content" />
    </div>
  );
}
