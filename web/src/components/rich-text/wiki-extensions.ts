/**
 * The editor's extras the wiki turns on (docs/wiki.md): checklists and callouts, written in the
 * exact HTML the server's sanitiser keeps (docs/adding-an-area.md "Rich text"):
 *
 * - a checklist is `<ul data-type="taskList"><li data-type="taskItem" data-checked="true|false">…`
 *   — Tiptap's task item draws a checkbox inside a `<label>` in its HTML, which the server drops;
 *   here the item's HTML is the item alone (the editor still shows a real checkbox to tick, and
 *   the reader draws the box with CSS, rich-text.css), so what the editor says it holds is what
 *   is stored;
 * - a callout is `<div data-callout="info|tip|warning|danger">` around blocks.
 */
import { mergeAttributes, Node } from '@tiptap/core';
import { TaskItem, TaskList } from '@tiptap/extension-list';

/** The kinds of callout, as `data-callout` names them. */
export const CALLOUT_KINDS = ['info', 'tip', 'warning', 'danger'] as const;
export type CalloutKind = (typeof CALLOUT_KINDS)[number];

/** What the toolbar and the reader call each kind. */
export const CALLOUT_LABELS: Record<CalloutKind, string> = {
  info: 'Info',
  tip: 'Tip',
  warning: 'Warning',
  danger: 'Danger',
};

export function isCalloutKind(value: unknown): value is CalloutKind {
  return typeof value === 'string' && (CALLOUT_KINDS as readonly string[]).includes(value);
}

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    callout: {
      /** Wraps the selected blocks in a callout of this kind. */
      setCallout: (kind: CalloutKind) => ReturnType;
      /** Changes the kind of the callout around the selection. */
      setCalloutKind: (kind: CalloutKind) => ReturnType;
      /** Takes the selected blocks out of their callout. */
      unsetCallout: () => ReturnType;
    };
  }
}

/** `<div data-callout="<kind>">` around one or more blocks; a div of another kind is not one. */
export const Callout = Node.create({
  name: 'callout',
  group: 'block',
  content: 'block+',
  defining: true,

  addAttributes() {
    return {
      kind: {
        default: 'info',
        parseHTML: (element) => {
          const kind = element.getAttribute('data-callout');
          return isCalloutKind(kind) ? kind : 'info';
        },
        renderHTML: (attributes) => ({ 'data-callout': attributes.kind as string }),
      },
    };
  },

  parseHTML() {
    return [
      {
        tag: 'div[data-callout]',
        getAttrs: (element) => (isCalloutKind(element.getAttribute('data-callout')) ? null : false),
      },
    ];
  },

  renderHTML({ HTMLAttributes }) {
    return ['div', mergeAttributes(HTMLAttributes), 0];
  },

  addCommands() {
    return {
      setCallout:
        (kind) =>
        ({ commands }) =>
          commands.wrapIn(this.name, { kind }),
      setCalloutKind:
        (kind) =>
        ({ commands }) =>
          commands.updateAttributes(this.name, { kind }),
      unsetCallout:
        () =>
        ({ commands }) =>
          commands.lift(this.name),
    };
  },
});

/** A checklist item whose HTML is the item alone (no checkbox input or label). */
export const ChecklistItem = TaskItem.extend({
  renderHTML({ HTMLAttributes }) {
    return [
      'li',
      mergeAttributes({ 'data-type': this.name }, this.options.HTMLAttributes, HTMLAttributes),
      0,
    ];
  },
}).configure({ nested: true });

/** Checklists: the list and its items. */
export const CHECKLIST_EXTENSIONS = [TaskList, ChecklistItem];
