/**
 * Starting points for a new wiki page (the Page creator, `/wiki/create` and `/wiki-creator`;
 * docs/wiki.md): a procedure, a troubleshooting guide, a checklist, or a blank page. Each is HTML
 * in the form the rich-text editor produces and the server's sanitiser keeps (headings h2–h4,
 * paragraphs, lists, tables, checklists `<ul data-type="taskList">` and callouts
 * `<div data-callout="…">`), with placeholders in square brackets for the writer to replace.
 * Isomorphic: the web app offers them, the demo seed may write pages from them.
 */

/** The templates' ids, in the order the creator offers them. */
export const WIKI_TEMPLATE_IDS = ['procedure', 'troubleshooting', 'checklist', 'blank'] as const;
/** One of WIKI_TEMPLATE_IDS. */
export type WikiTemplateId = (typeof WIKI_TEMPLATE_IDS)[number];

/** A starting point for a new page. */
export interface WikiTemplate {
  id: WikiTemplateId;
  /** What the creator calls it ("Procedure"). */
  name: string;
  /** One sentence on when to use it. */
  description: string;
  /** The page body it starts with ('' for a blank page). */
  html: string;
}

const PROCEDURE = [
  '<div data-callout="danger"><p><strong>Safety:</strong> [Never look into a fibre or connector end. ',
  'Name the hazards of this job and how to avoid them.]</p></div>',
  '<h2>Purpose</h2>',
  '<p>[What this procedure achieves, and when to use it — for example: splicing a 144-fibre loose-tube ',
  'cable in a splice closure.]</p>',
  '<h2>Required tools and materials</h2>',
  '<ul><li><p>[Fusion splicer, calibrated this year]</p></li>',
  '<li><p>[Precision cleaver]</p></li>',
  '<li><p>[Fibre stripper, isopropyl alcohol and lint-free wipes]</p></li>',
  '<li><p>[Splice protection sleeves]</p></li>',
  '<li><p>[Personal protective equipment: safety glasses, gloves]</p></li></ul>',
  '<h2>Before you start</h2>',
  '<ul><li><p>[Permits, work order number, who to inform]</p></li>',
  '<li><p>[Site conditions to check]</p></li></ul>',
  '<h2>Steps</h2>',
  '<ol><li><p>[First step: prepare and clean the cable end.]</p></li>',
  '<li><p>[Second step: strip, clean and cleave the fibre.]</p></li>',
  '<li><p>[Third step: splice, check the estimated loss, protect the splice.]</p></li>',
  '<li><p>[Last step: organise the fibres in the tray and close the closure.]</p></li></ol>',
  '<div data-callout="tip"><p>[A tip from the field that saves time or avoids a common mistake.]</p></div>',
  '<h2>Checks</h2>',
  '<p>[How to verify the work — for example: an OTDR trace of each fibre, with the loss per splice ',
  'under 0.1 dB.]</p>',
  '<h2>Records</h2>',
  '<p>[What to record, and where.]</p>',
].join('');

const TROUBLESHOOTING = [
  '<p>[Which equipment or service this guide covers, and who may use it.]</p>',
  '<div data-callout="warning"><p>[Before you start: what must be made safe or switched off, and ',
  'when to stop and escalate.]</p></div>',
  '<h2>Symptoms, causes and fixes</h2>',
  '<table><tbody>',
  '<tr><th><p>Symptom</p></th><th><p>Likely cause</p></th><th><p>Fix</p></th></tr>',
  '<tr><td><p>[High loss on one fibre]</p></td><td><p>[Dirty connector or bad splice]</p></td>',
  '<td><p>[Clean and inspect the connector; re-splice if the OTDR shows a step at the splice]</p></td></tr>',
  '<tr><td><p>[No light at the far end]</p></td><td><p>[Fibre break or wrong patch]</p></td>',
  '<td><p>[Trace with a visual fault locator; check the patch record]</p></td></tr>',
  '<tr><td><p>[Intermittent errors]</p></td><td><p>[Tight bend or loose connector]</p></td>',
  '<td><p>[Check bend radius in trays and ducts; reseat the connector]</p></td></tr>',
  '</tbody></table>',
  '<h2>If nothing helps</h2>',
  '<p>[Who to call, what to report (readings, photos, location), and how to record the fault.]</p>',
].join('');

const CHECKLIST = [
  '<p>[What this checklist is for and when to go through it.]</p>',
  '<h2>Before</h2>',
  '<ul data-type="taskList">',
  '<li data-type="taskItem" data-checked="false"><p>[Work order and permits at hand]</p></li>',
  '<li data-type="taskItem" data-checked="false"><p>[Site made safe: barriers, signs, gas test]</p></li>',
  '<li data-type="taskItem" data-checked="false"><p>[Tools and test equipment checked]</p></li>',
  '</ul>',
  '<h2>During</h2>',
  '<ul data-type="taskList">',
  '<li data-type="taskItem" data-checked="false"><p>[Each step to tick off]</p></li>',
  '</ul>',
  '<h2>After</h2>',
  '<ul data-type="taskList">',
  '<li data-type="taskItem" data-checked="false"><p>[Test results recorded]</p></li>',
  '<li data-type="taskItem" data-checked="false"><p>[Site cleared and closed]</p></li>',
  '</ul>',
  '<div data-callout="info"><p>[Where to file the completed checklist.]</p></div>',
].join('');

/** The templates, in the order the creator offers them. */
export const WIKI_TEMPLATES: readonly WikiTemplate[] = [
  {
    id: 'procedure',
    name: 'Procedure',
    description: 'Step-by-step instructions with the tools needed and a safety note.',
    html: PROCEDURE,
  },
  {
    id: 'troubleshooting',
    name: 'Troubleshooting guide',
    description: 'A table of symptoms, their likely causes and the fix for each.',
    html: TROUBLESHOOTING,
  },
  {
    id: 'checklist',
    name: 'Checklist',
    description: 'Items to tick off before, during and after a job.',
    html: CHECKLIST,
  },
  {
    id: 'blank',
    name: 'Blank page',
    description: 'An empty page to write from scratch.',
    html: '',
  },
];

/** The template with this id, if there is one. */
export function findWikiTemplate(id: string): WikiTemplate | undefined {
  return WIKI_TEMPLATES.find((t) => t.id === id);
}

/**
 * A template's placeholder: text in square brackets that starts with a capital letter, as every
 * placeholder of the templates above does ("[Fusion splicer, calibrated this year]"). Reference
 * marks such as "[1]" or "[sic]" are not placeholders.
 */
const PLACEHOLDER = /\[([A-Z][^[\]]{3,})\]/g;

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/**
 * The placeholders still in a page's HTML, each once, in the order they appear: the Page creator
 * and editor ask before publishing a page that has any (docs/wiki.md).
 */
export function findWikiPlaceholders(html: string): string[] {
  const text = html
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d+|#x[\da-f]+|[a-z]+);/gi, (entity, name: string) => {
      if (name.startsWith('#')) {
        const code =
          name[1] === 'x' || name[1] === 'X'
            ? parseInt(name.slice(2), 16)
            : parseInt(name.slice(1), 10);
        return Number.isFinite(code) ? String.fromCodePoint(code) : entity;
      }
      return ENTITIES[name.toLowerCase()] ?? entity;
    });
  const found = new Set<string>();
  for (const [placeholder] of text.matchAll(PLACEHOLDER)) found.add(placeholder);
  return [...found];
}
