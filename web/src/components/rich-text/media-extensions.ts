/**
 * The editor's media nodes. The stored HTML names a file by its download route only
 * (`/api/files/<id>`, docs/adding-an-area.md "Rich text"); the browser cannot load that route in an
 * <img>/<video> without a signed URL (the server signs URLs only in HTML it serves). So a file
 * uploaded in this editor is shown from the local copy the user just picked (an object URL),
 * while the document keeps `/api/files/<id>`. Media loaded from the server already carry their
 * signed URL and show as they are.
 */
import { mergeAttributes, Node, type NodeViewRendererProps } from '@tiptap/core';
import Image from '@tiptap/extension-image';

/** Local previews of files uploaded in this page: download path → object URL. */
const previews = new Map<string, string>();

/** Remembers the local copy of an uploaded file to show in place of its download path. */
export function rememberPreview(path: string, file: Blob): void {
  if (previews.has(path) || typeof URL.createObjectURL !== 'function') return;
  try {
    previews.set(path, URL.createObjectURL(file));
  } catch {
    // No local preview: the file is shown once the server's signed HTML comes back.
  }
}

function shownSrc(src: unknown): string {
  const text = typeof src === 'string' ? src : '';
  return previews.get(text) ?? text;
}

/** A node view of one media element whose `src` shows the local preview when there is one. */
function mediaView(tag: 'img' | 'video', fixed: Record<string, string>) {
  return ({ node, HTMLAttributes }: NodeViewRendererProps & { HTMLAttributes: object }) => {
    const dom = document.createElement(tag);
    const apply = (attrs: Record<string, unknown>) => {
      for (const [key, value] of Object.entries({ ...fixed, ...attrs })) {
        if (value === null || value === undefined || value === false) dom.removeAttribute(key);
        else dom.setAttribute(key, key === 'src' ? shownSrc(value) : String(value));
      }
    };
    apply({ ...(HTMLAttributes as Record<string, unknown>), src: node.attrs.src as unknown });
    return {
      dom,
      update: (updated: typeof node) => {
        if (updated.type !== node.type) return false;
        apply(updated.attrs);
        return true;
      },
    };
  };
}

/** Images (block), shown from the local preview right after an upload. */
export const EditorImage = Image.extend({
  addNodeView() {
    return mediaView('img', {});
  },
});

export interface VideoAttributes {
  src: string;
  title?: string | null;
}

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    video: {
      /** Inserts a `<video controls src>` block. */
      setVideo: (attributes: VideoAttributes) => ReturnType;
    };
  }
}

/** A `<video controls src="/api/files/<id>">` block (the sanitiser keeps src and controls). */
export const Video = Node.create({
  name: 'video',
  group: 'block',
  atom: true,
  draggable: true,

  addAttributes() {
    return {
      src: { default: null },
      title: { default: null },
    };
  },

  parseHTML() {
    return [{ tag: 'video[src]' }];
  },

  renderHTML({ HTMLAttributes }) {
    return ['video', mergeAttributes({ controls: 'true', preload: 'metadata' }, HTMLAttributes)];
  },

  addNodeView() {
    return mediaView('video', { controls: 'true', preload: 'metadata' });
  },

  addCommands() {
    return {
      setVideo:
        (attributes) =>
        ({ commands }) =>
          commands.insertContent({ type: this.name, attrs: attributes }),
    };
  },
});
