/**
 * The demo wiki (docs/wiki.md): linked procedure pages of a fibre-network company in the company
 * space, two department spaces and a course space, written the way people write them — through
 * the wiki's service as the demo admin and instructor, several revisions each, so revisions,
 * links, backlinks and the search index are what they would be. Among them a draft of the
 * instructor's, a link by title to a page nobody wrote yet, a checklist, callouts, tables and a
 * code block. Only when the wiki is empty.
 */
import type { FastifyInstance } from 'fastify';
import { getRolesVersion } from '../../platform/access/access-repository';
import { findUserByUsername, type UserRecord } from '../../platform/auth/user-repository';
import { findDepartment } from '../../platform/auth/departments';
import { findCourseRecord } from '../courses/public';
import { wikiPageHref, wikiTitleHref } from './links';
import { wikiViewerOf } from './wiki-access';
import { findPage } from './wiki-repository';
import { createPageFor, savePageFor } from './wiki-service';
import type { Db } from '../../platform/db';

/** The pages' text, by a short name; `{{name}}` becomes the link of that page by id. */
interface DemoPage {
  name: string;
  title: string;
  /** `company`, a department's name, or a course's id. */
  space:
    { type: 'company' } | { type: 'department'; name: string } | { type: 'course'; id: string };
  parent?: string;
  author: 'admin' | 'instructor';
  status?: 'draft';
  /** The first revision, then each later one with its author and summary. */
  revisions: { by: 'admin' | 'instructor'; summary: string; html: string }[];
}

const SPLICING_V1 =
  '<h2>Before you start</h2><p>Read the {{colours}} page and check the closure’s splice plan.</p>' +
  '<ul data-type="taskList">' +
  '<li data-type="taskItem" data-checked="false"><p>Fusion splicer calibrated today (arc check)</p></li>' +
  '<li data-type="taskItem" data-checked="false"><p>Cleaver blade position noted</p></li>' +
  '<li data-type="taskItem" data-checked="false"><p>Isopropyl alcohol (99 %) and lint-free wipes</p></li>' +
  '</ul><h2>Preparing the cable</h2><p>Strip 2 m of sheath, remove the gel with gel cleaner and ' +
  'fan out the twelve tubes of twelve fibres.</p>';

const SPLICING_TABLE =
  '<h2>Tubes and fibres</h2><table><tbody><tr><th>Tube</th><th>Colour</th><th>Fibres</th></tr>' +
  '<tr><td>1</td><td>Blue</td><td>1–12</td></tr><tr><td>2</td><td>Orange</td><td>13–24</td></tr>' +
  '<tr><td>3</td><td>Green</td><td>25–36</td></tr><tr><td>…</td><td>…</td><td>…</td></tr>' +
  '<tr><td>12</td><td>Aqua</td><td>133–144</td></tr></tbody></table>';

const SPLICING_V3 =
  SPLICING_V1 +
  SPLICING_TABLE +
  '<h2>Splicing</h2><ol><li><p>Cleave at 10 mm and splice fibre by fibre, tube by tube.</p></li>' +
  '<li><p>Protect each splice with a 40 mm sleeve and lay it in the tray.</p></li></ol>' +
  '<div data-callout="tip"><p>Keep the estimated loss under 0.05 dB per splice; see ' +
  '{{title:Splice loss budget}} for the whole link.</p></div>' +
  '<h2>Testing</h2><p>Test every fibre from both ends: {{otdr}}.</p>';

const DEMO_PAGES: readonly DemoPage[] = [
  {
    name: 'procedures',
    title: 'Field procedures',
    space: { type: 'company' },
    author: 'admin',
    revisions: [
      {
        by: 'admin',
        summary: 'Start of the field procedures',
        html: '<p>How we build, splice, test and repair fibre in the field. Start with safety.</p>',
      },
      {
        by: 'instructor',
        summary: 'Links to the procedures',
        html:
          '<p>How we build, splice, test and repair fibre in the field. Start with safety: ' +
          '{{manhole}}.</p><ul><li><p>{{splicing}}</p></li><li><p>{{otdr}}</p></li></ul>',
      },
    ],
  },
  {
    name: 'colours',
    title: 'Fibre colour codes',
    space: { type: 'company' },
    author: 'admin',
    revisions: [
      {
        by: 'admin',
        summary: '',
        html:
          '<p>The TIA-598 colour code, for fibres within a tube and for the tubes of a cable.</p>' +
          '<table><tbody><tr><th>#</th><th>Colour</th><th>#</th><th>Colour</th></tr>' +
          '<tr><td>1</td><td>Blue</td><td>7</td><td>Red</td></tr>' +
          '<tr><td>2</td><td>Orange</td><td>8</td><td>Black</td></tr>' +
          '<tr><td>3</td><td>Green</td><td>9</td><td>Yellow</td></tr>' +
          '<tr><td>4</td><td>Brown</td><td>10</td><td>Violet</td></tr>' +
          '<tr><td>5</td><td>Slate</td><td>11</td><td>Rose</td></tr>' +
          '<tr><td>6</td><td>White</td><td>12</td><td>Aqua</td></tr></tbody></table>',
      },
      {
        by: 'instructor',
        summary: 'Tracers beyond twelve',
        html:
          '<p>The TIA-598 colour code, for fibres within a tube and for the tubes of a cable.</p>' +
          '<table><tbody><tr><th>#</th><th>Colour</th><th>#</th><th>Colour</th></tr>' +
          '<tr><td>1</td><td>Blue</td><td>7</td><td>Red</td></tr>' +
          '<tr><td>2</td><td>Orange</td><td>8</td><td>Black</td></tr>' +
          '<tr><td>3</td><td>Green</td><td>9</td><td>Yellow</td></tr>' +
          '<tr><td>4</td><td>Brown</td><td>10</td><td>Violet</td></tr>' +
          '<tr><td>5</td><td>Slate</td><td>11</td><td>Rose</td></tr>' +
          '<tr><td>6</td><td>White</td><td>12</td><td>Aqua</td></tr></tbody></table>' +
          '<p>Tubes 13–24 repeat the colours with a black tracer stripe.</p>',
      },
    ],
  },
  {
    name: 'manhole',
    title: 'Manhole entry checklist',
    space: { type: 'company' },
    parent: 'procedures',
    author: 'admin',
    revisions: [
      {
        by: 'admin',
        summary: 'The checklist from the safety briefing',
        html:
          '<div data-callout="danger"><p>Never enter alone, and never before the gas test.</p></div>' +
          '<ul data-type="taskList">' +
          '<li data-type="taskItem" data-checked="false"><p>Barriers and signs around the opening</p></li>' +
          '<li data-type="taskItem" data-checked="false"><p>Gas detector bump-tested today</p></li>' +
          '<li data-type="taskItem" data-checked="false"><p>Air tested at the top, middle and bottom</p></li>' +
          '<li data-type="taskItem" data-checked="false"><p>Attendant at the top for the whole entry</p></li>' +
          '</ul>',
      },
      {
        by: 'instructor',
        summary: 'Ventilation',
        html:
          '<div data-callout="danger"><p>Never enter alone, and never before the gas test.</p></div>' +
          '<ul data-type="taskList">' +
          '<li data-type="taskItem" data-checked="false"><p>Barriers and signs around the opening</p></li>' +
          '<li data-type="taskItem" data-checked="false"><p>Gas detector bump-tested today</p></li>' +
          '<li data-type="taskItem" data-checked="false"><p>Air tested at the top, middle and bottom</p></li>' +
          '<li data-type="taskItem" data-checked="false"><p>Forced ventilation running for 10 minutes</p></li>' +
          '<li data-type="taskItem" data-checked="false"><p>Attendant at the top for the whole entry</p></li>' +
          '</ul><div data-callout="info"><p>The detector alarms at 19.5 % oxygen, 10 % LEL, ' +
          '35 ppm CO and 10 ppm H₂S.</p></div>',
      },
    ],
  },
  {
    name: 'splicing',
    title: 'Splicing a 144-fibre cable',
    space: { type: 'company' },
    parent: 'procedures',
    author: 'instructor',
    revisions: [
      { by: 'instructor', summary: 'First version', html: SPLICING_V1 },
      { by: 'admin', summary: 'Tube table', html: SPLICING_V1 + SPLICING_TABLE },
      { by: 'instructor', summary: 'Splicing and testing steps', html: SPLICING_V3 },
    ],
  },
  {
    name: 'otdr',
    title: 'Reading an OTDR trace',
    space: { type: 'company' },
    parent: 'procedures',
    author: 'instructor',
    revisions: [
      {
        by: 'instructor',
        summary: 'Events',
        html:
          '<p>Use a launch cable of at least 500 m so the first connector is not lost in the dead zone.</p>' +
          '<table><tbody><tr><th>Event</th><th>Looks like</th><th>Usually</th></tr>' +
          '<tr><td>Reflective spike</td><td>A peak, then a step down</td><td>Connector or mechanical splice</td></tr>' +
          '<tr><td>Step down</td><td>A drop without a peak</td><td>Fusion splice or bend</td></tr>' +
          '<tr><td>End spike</td><td>A peak, then noise</td><td>End of the fibre or a break</td></tr>' +
          '</tbody></table>',
      },
      {
        by: 'admin',
        summary: 'Exporting traces',
        html:
          '<p>Use a launch cable of at least 500 m so the first connector is not lost in the dead zone.</p>' +
          '<table><tbody><tr><th>Event</th><th>Looks like</th><th>Usually</th></tr>' +
          '<tr><td>Reflective spike</td><td>A peak, then a step down</td><td>Connector or mechanical splice</td></tr>' +
          '<tr><td>Step down</td><td>A drop without a peak</td><td>Fusion splice or bend</td></tr>' +
          '<tr><td>End spike</td><td>A peak, then noise</td><td>End of the fibre or a break</td></tr>' +
          '</tbody></table><h2>Saving the traces</h2><p>Export every trace as SOR and name it by ' +
          'closure, tube and fibre:</p><pre><code class="language-bash">otdr export --format sor ' +
          '--name "{closure}-T{tube}-F{fibre}" --wavelengths 1310,1550</code></pre>' +
          '<p>Splices found here are the ones of {{splicing}}.</p>',
      },
    ],
  },
  {
    name: 'aerial',
    title: 'Aerial cable work',
    space: { type: 'company' },
    author: 'instructor',
    status: 'draft',
    revisions: [
      {
        by: 'instructor',
        summary: 'Draft',
        html: '<p>Working at height on poles: harness, ladder angle 75°, and the 3 m rule near power lines.</p>',
      },
      {
        by: 'instructor',
        summary: 'More to come',
        html:
          '<p>Working at height on poles: harness, ladder angle 75°, and the 3 m rule near power lines.</p>' +
          '<div data-callout="warning"><p>Not reviewed yet: do not use in the field.</p></div>',
      },
    ],
  },
  {
    name: 'van',
    title: 'Splice van stock list',
    space: { type: 'department', name: 'Field Operations' },
    author: 'instructor',
    revisions: [
      {
        by: 'instructor',
        summary: '',
        html:
          '<ul data-type="taskList">' +
          '<li data-type="taskItem" data-checked="true"><p>Fusion splicer and spare electrodes</p></li>' +
          '<li data-type="taskItem" data-checked="true"><p>Cleaver</p></li>' +
          '<li data-type="taskItem" data-checked="false"><p>200 splice sleeves (40 mm)</p></li>' +
          '<li data-type="taskItem" data-checked="false"><p>Gas detector</p></li></ul>',
      },
      {
        by: 'admin',
        summary: 'Launch cable',
        html:
          '<ul data-type="taskList">' +
          '<li data-type="taskItem" data-checked="true"><p>Fusion splicer and spare electrodes</p></li>' +
          '<li data-type="taskItem" data-checked="true"><p>Cleaver</p></li>' +
          '<li data-type="taskItem" data-checked="false"><p>200 splice sleeves (40 mm)</p></li>' +
          '<li data-type="taskItem" data-checked="false"><p>Gas detector</p></li>' +
          '<li data-type="taskItem" data-checked="false"><p>500 m launch cable for the OTDR</p></li></ul>' +
          '<p>Procedures: {{splicing}}, {{manhole}}.</p>',
      },
    ],
  },
  {
    name: 'router',
    title: 'Core router change window',
    space: { type: 'department', name: 'Network Engineering' },
    author: 'admin',
    revisions: [
      {
        by: 'admin',
        summary: '',
        html: '<p>Changes to the core routers happen on Tuesdays, 01:00–04:00, with a rollback plan.</p>',
      },
      {
        by: 'admin',
        summary: 'Checks before and after',
        html:
          '<p>Changes to the core routers happen on Tuesdays, 01:00–04:00, with a rollback plan.</p>' +
          '<pre><code class="language-bash">show bgp summary\nshow isis adjacency\nshow interfaces ' +
          'terse | match down</code></pre>' +
          '<div data-callout="warning"><p>Save the output before and after the change.</p></div>',
      },
    ],
  },
  {
    name: 'week1',
    title: 'Week 1 reading list',
    space: { type: 'course', id: 'fiber-splicing-101' },
    author: 'instructor',
    revisions: [
      {
        by: 'instructor',
        summary: '',
        html: '<p>Before the first practical: {{colours}} and {{splicing}}.</p>',
      },
      {
        by: 'instructor',
        summary: 'Safety first',
        html:
          '<p>Before the first practical: {{colours}}, {{splicing}} and {{manhole}}.</p>' +
          '<h2>Questions for the practical</h2><ol><li><p>Why cleave at 10 mm?</p></li>' +
          '<li><p>What does a step down on a trace mean?</p></li></ol>',
      },
    ],
  },
];

/** A URL as an attribute value. */
const escape = (href: string) => href.replaceAll('&', '&amp;');

/** How far apart the demo saves are, from a week ago. */
const STEP_MS = 3 * 3_600_000;

/** Seeds the demo wiki when it has no pages; returns whether it did. */
export async function seedDemoWiki(
  app: Pick<FastifyInstance, 'access' | 'files'>,
  db: Db,
  now: Date = new Date(),
): Promise<boolean> {
  const existing = await db
    .selectFrom('wiki_pages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(existing.n) > 0) return false;
  const deps = { db, access: app.access, files: app.files };
  const rolesVersion = await getRolesVersion(db);
  const users = new Map<string, UserRecord>();
  for (const username of ['admin', 'instructor'] as const) {
    const user = await findUserByUsername(db, username);
    if (!user) return false;
    await app.access.ensureUser(user, rolesVersion);
    users.set(username, user);
  }
  let at = now.getTime() - 7 * 24 * 3_600_000;
  const tick = () => (at += STEP_MS);
  const viewer = (who: 'admin' | 'instructor') =>
    wikiViewerOf(app.access, users.get(who) as UserRecord, at);

  // Each page's space; pages whose department or course is missing are left out.
  const spaces = new Map<string, string>();
  for (const page of DEMO_PAGES) {
    if (page.space.type === 'company') spaces.set(page.name, 'company');
    else if (page.space.type === 'department') {
      const department = await findDepartment(db, page.space.name);
      if (department) spaces.set(page.name, `department:${department.id}`);
    } else if (await findCourseRecord(db, page.space.id)) {
      spaces.set(page.name, `course:${page.space.id}`);
    }
  }
  const ids = new Map<string, string>();
  const titles = new Map(DEMO_PAGES.map((p) => [p.name, p.title]));
  /** The HTML with its `{{name}}` links: by id once the page exists, else by title. */
  const linked = (html: string) =>
    html.replace(/\{\{(title:)?([^}]+)\}\}/g, (_m, byTitle: string | undefined, name: string) => {
      if (byTitle) return `<a href="${escape(wikiTitleHref('company', name))}">${name}</a>`;
      const id = ids.get(name);
      const title = titles.get(name) ?? name;
      return id
        ? `<a href="${wikiPageHref(id)}">${title}</a>`
        : `<a href="${escape(wikiTitleHref(spaces.get(name) ?? 'company', title))}">${title}</a>`;
    });

  // First revisions in order, so parents exist before their children…
  for (const page of DEMO_PAGES) {
    const space = spaces.get(page.name);
    const first = page.revisions[0];
    if (!space || !first) continue;
    const id = await createPageFor(deps, {
      body: {
        title: page.title,
        space,
        parentId: page.parent ? (ids.get(page.parent) ?? null) : null,
        html: linked(first.html),
        summary: first.summary,
        status: page.status ?? 'published',
      },
      viewer: viewer(page.author),
      now: tick(),
    });
    ids.set(page.name, id);
  }
  // …then the later ones, taking turns, their links now by id.
  const rounds = Math.max(...DEMO_PAGES.map((p) => p.revisions.length));
  for (let round = 1; round < rounds; round += 1) {
    for (const page of DEMO_PAGES) {
      const revision = page.revisions[round];
      const id = ids.get(page.name);
      if (!revision || !id) continue;
      const current = await findPage(db, id);
      if (!current) continue;
      await savePageFor(deps, {
        page: current,
        body: {
          baseRevision: current.revision,
          title: page.title,
          html: linked(revision.html),
          summary: revision.summary,
        },
        viewer: viewer(revision.by),
        now: tick(),
      });
    }
  }
  return ids.size > 0;
}
