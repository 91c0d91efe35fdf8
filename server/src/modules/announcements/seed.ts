/**
 * Demo announcements (docs/announcements.md): written through the area's service as the demo
 * admin and instructor, so recipients, notifications and jobs are what they would be. A live
 * urgent one asking for an acknowledgement (a cable cut closes a road), a pinned important one
 * (a safety rule), one scheduled for tomorrow, one that has expired, one to a course by the demo
 * instructor, and one to the department the instructor manages. Only when there are none.
 */
import type { AnnouncementCreateSchema } from '@learning-hub/core';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { getRolesVersion } from '../../platform/access/access-repository';
import { findDepartment } from '../../platform/auth/departments';
import { findUserByUsername, type UserRecord } from '../../platform/auth/user-repository';
import type { Db } from '../../platform/db';
import { findCourseRecord } from '../courses/public';
import { countAnnouncements } from './announcement-repository';
import { createAnnouncement } from './announcement-service';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Input = z.output<typeof AnnouncementCreateSchema>;

const EVERYONE = { everyone: true, roles: [], departmentIds: [], courseIds: [], userIds: [] };

function draft(fields: Partial<Input> & Pick<Input, 'title' | 'bodyHtml' | 'audience'>): Input {
  return {
    priority: 'info',
    pinned: false,
    requiresAck: false,
    publish: 'now',
    publishAt: null,
    expiresAt: null,
    ...fields,
  };
}

/** Seeds the demo announcements once; returns whether it did. */
export async function seedDemoAnnouncements(
  app: FastifyInstance,
  db: Db,
  now: Date,
): Promise<boolean> {
  if ((await countAnnouncements(db)) > 0) return false;
  const admin = await findUserByUsername(db, 'admin');
  const instructor = await findUserByUsername(db, 'instructor');
  if (!admin || !instructor) return false;
  const rolesVersion = await getRolesVersion(db);
  for (const user of [admin, instructor]) await app.access.ensureUser(user, rolesVersion);
  const fieldOps = await findDepartment(db, 'Field Operations');
  const splicing = await findCourseRecord(db, 'fiber-splicing-101');
  const at = now.getTime();
  /** Written as `user` at `when` (the service's clock), so an old one is as it was then. */
  const write = (user: UserRecord, input: Input, when = at) =>
    createAnnouncement({ app, db, now: () => when }, user, input);

  // Ten days ago, for a week: expired now.
  await write(
    admin,
    draft({
      title: 'Gradebook exports now include percentages',
      bodyHtml:
        '<p>The gradebook’s <strong>Export CSV</strong> now adds a <em>Percent</em> column after the total. ' +
        'Spreadsheets that read the old layout need their last column moved by one.</p>',
      audience: { ...EVERYONE, everyone: false, roles: ['instructor'] },
      expiresAt: new Date(at - 3 * DAY).toISOString(),
    }),
    at - 10 * DAY,
  );
  await write(
    admin,
    draft({
      title: 'Safety rule updated: aerial work near live power lines',
      bodyHtml:
        '<p>From today, <strong>no aerial splicing within 3 m of a live power line</strong> without the ' +
        'utility’s written clearance, whatever the voltage.</p>' +
        '<ul><li>Check the pole tag before you climb.</li><li>Call the depot lead if the clearance is ' +
        'not in the work order.</li><li>Insulated gloves stay on until the closure is sealed.</li></ul>',
      audience: EVERYONE,
      priority: 'important',
      pinned: true,
    }),
    at - 2 * DAY,
  );
  if (fieldOps) {
    await write(
      instructor,
      draft({
        title: 'Splicing procedure change: 60 mm protection sleeves from Monday',
        bodyHtml:
          '<p>The 40 mm heat-shrink sleeves are withdrawn after the tray audit. From Monday every fusion ' +
          'splice gets a <strong>60 mm sleeve</strong>; trays in the vans are being swapped this week.</p>' +
          '<p>The wiki page <em>Splicing a 144-fibre closure</em> has the new step.</p>',
        audience: { ...EVERYONE, everyone: false, departmentIds: [fieldOps.id] },
        priority: 'important',
        requiresAck: true,
      }),
      at - DAY,
    );
  }
  if (splicing) {
    await write(
      instructor,
      draft({
        title: 'Practical session moves to the Riverside depot',
        bodyHtml:
          '<p>Thursday’s hands-on splicing session is at the <strong>Riverside depot</strong>, bay 2, ' +
          'not the training room. Bring your cleaver; splicers and fibre are provided.</p>',
        audience: { ...EVERYONE, everyone: false, courseIds: [splicing.id] },
      }),
      at - 5 * HOUR,
    );
  }
  await write(
    admin,
    draft({
      title: 'Cable cut: Elm Street closed between Mill Road and 5th Avenue',
      bodyHtml:
        '<p>A contractor cut the 96-fibre feeder in the Elm Street duct this morning. The road is ' +
        '<strong>closed between Mill Road and 5th Avenue</strong> while the duct is dug out.</p>' +
        '<ul><li>Do not send crews to cabinets EL-03 to EL-07 until Network Engineering clears the site.</li>' +
        '<li>Customers on those cabinets are out of service: Customer Support has the script.</li></ul>',
      audience: EVERYONE,
      priority: 'urgent',
      requiresAck: true,
    }),
    at - HOUR,
  );
  // Tomorrow at 06:00 UTC, for a day.
  const tomorrow = new Date(at + DAY);
  tomorrow.setUTCHours(6, 0, 0, 0);
  await write(
    admin,
    draft({
      title: 'Planned maintenance: the hub is offline on Saturday 06:00–07:00 UTC',
      bodyHtml:
        '<p>The Learning Hub is updated on Saturday between 06:00 and 07:00 UTC. Work you save before ' +
        'then is kept; lessons and the library are unavailable for that hour.</p>',
      audience: EVERYONE,
      publish: 'at',
      publishAt: tomorrow.toISOString(),
      expiresAt: new Date(tomorrow.getTime() + DAY).toISOString(),
    }),
  );
  return true;
}
