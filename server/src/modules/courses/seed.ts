/**
 * Demo classroom content for the demo courses: sections and lessons a fiber technician would
 * really take, assignments with due dates around "now", a crew of demo learners enrolled with
 * some progress, handed-in work and released grades, and one draft course, so `npm start` shows
 * a living classroom. Runs once (when no course has a section yet), also on databases seeded
 * before the classroom existed. The demo learners cannot sign in (their passwords are random);
 * they are there to fill participant lists and gradebooks.
 */
import { randomBytes } from 'node:crypto';
import { upsertAssignment } from '../../platform/access/access-repository';
import { hashPassword } from '../../platform/auth/passwords';
import { createUser, findUserByUsername } from '../../platform/auth/user-repository';
import { findDepartment } from '../../platform/auth/departments';
import { indexCourse } from './course-repository';
import { indexCourseLessons } from './structure-repository';
import { sortableId } from '../../platform/ids';
import { richTextToPlainText, sanitizeRichText } from '../../platform/rich-text/sanitize';
import type { Db } from '../../platform/db';

const DAY = 86_400_000;

interface DemoLesson {
  title: string;
  minutes: number;
  body: string;
}
interface DemoAssignment {
  title: string;
  instructions: string;
  /** Days from the seed time; negative is in the past. */
  dueInDays: number;
  points: number;
  latePolicy: 'accept' | 'mark_late' | 'refuse';
  fileKinds: string[];
  released: boolean;
}
interface DemoCourseContent {
  courseId: string;
  summary: string;
  enrolmentMode: 'open' | 'key' | 'manual';
  enrolmentKey?: string;
  capacity?: number;
  sections: { title: string; lessons: DemoLesson[] }[];
  assignments: DemoAssignment[];
}

const p = (...paragraphs: string[]) => paragraphs.map((t) => `<p>${t}</p>`).join('');
const ul = (...items: string[]) => `<ul>${items.map((t) => `<li>${t}</li>`).join('')}</ul>`;

export const DEMO_CLASSROOM: readonly DemoCourseContent[] = [
  {
    courseId: 'fiber-splicing-101',
    summary: p(
      'Everything a new field technician needs to make <strong>low-loss, reliable splices</strong>: preparing the fiber, fusion and mechanical splicing, organising splice trays and checking the result against the loss budget.',
    ),
    enrolmentMode: 'open',
    sections: [
      {
        title: 'Preparing the fiber',
        lessons: [
          {
            title: 'Safety first: fiber shards and lasers',
            minutes: 10,
            body:
              '<h2>Why it matters</h2>' +
              p(
                'Glass fiber shards are nearly invisible and work their way into skin and eyes. Never look into a fiber end: the light of a live circuit is invisible and can damage your eyes.',
              ) +
              ul(
                'Wear safety glasses from the moment you strip the first buffer.',
                'Put every offcut straight into the shard bin, never on the floor or the work mat.',
                'Treat every fiber as live until the OTDR or a power meter says otherwise.',
              ),
          },
          {
            title: 'Stripping, cleaning and cleaving',
            minutes: 20,
            body:
              '<h2>The three steps</h2>' +
              '<ol><li>Strip the 250 µm coating with a calibrated stripper in one smooth pull.</li><li>Clean the bare fiber with lint-free wipes and 99 % isopropyl alcohol.</li><li>Cleave at the marked length; a good cleave angle is under 0.5°.</li></ol>' +
              p(
                'A poor cleave is the most common cause of a high-loss splice. Re-cleave rather than splice a bad end.',
              ),
          },
        ],
      },
      {
        title: 'Fusion splicing',
        lessons: [
          {
            title: 'Running the fusion splicer',
            minutes: 25,
            body:
              '<h2>Arc check and programs</h2>' +
              p(
                'Run an arc check at the start of every shift and whenever the temperature or altitude changes. Choose the program for the fiber type (G.652.D, G.657.A1).',
              ) +
              '<table><thead><tr><th>Fiber</th><th>Typical loss</th><th>Accept up to</th></tr></thead><tbody><tr><td>G.652.D</td><td>0.02 dB</td><td>0.05 dB</td></tr><tr><td>G.657.A1</td><td>0.03 dB</td><td>0.08 dB</td></tr></tbody></table>',
          },
          {
            title: 'Protecting and storing the splice',
            minutes: 15,
            body:
              p(
                'Slide the heat-shrink protector over the splice before fusing, centre it and shrink it in the oven.',
              ) +
              p(
                'Route fibers into the tray with a bend radius of at least 30 mm; label each splice with the cable and fiber number.',
              ),
          },
        ],
      },
      {
        title: 'Checking your work',
        lessons: [
          {
            title: 'Loss budgets',
            minutes: 15,
            body:
              p(
                'Add up connector, splice and fiber attenuation for the whole link and compare it with the transceiver budget. Keep a margin of at least 3 dB.',
              ) +
              '<pre><code class="language-text">budget = connectors × 0.3 dB + splices × 0.05 dB + km × 0.35 dB</code></pre>',
          },
        ],
      },
    ],
    assignments: [
      {
        title: 'Splice log for a 12-fiber closure',
        instructions: p(
          'Splice a 12-fiber cable into a closure on the practice rig and upload your splice log (PDF or a photo of the log sheet) with the estimated loss of every splice.',
        ),
        dueInDays: 5,
        points: 20,
        latePolicy: 'mark_late',
        fileKinds: ['pdf', 'image'],
        released: true,
      },
      {
        title: 'Loss budget exercise',
        instructions: p(
          'A 14 km link has 4 connectors and 9 splices. Work out the loss budget and say whether a 1310 nm transceiver with a 15 dB budget will do. Show your working.',
        ),
        dueInDays: -2,
        points: 10,
        latePolicy: 'accept',
        fileKinds: [],
        released: true,
      },
    ],
  },
  {
    courseId: 'otdr-trace-analysis',
    summary: p(
      'Read an OTDR trace with confidence: launch and receive cables, the event table, ghosts and gainers, and finding the fault before you drive out.',
    ),
    enrolmentMode: 'key',
    enrolmentKey: 'OTDR-2026',
    capacity: 24,
    sections: [
      {
        title: 'Taking a trace',
        lessons: [
          {
            title: 'Launch and receive cables',
            minutes: 15,
            body: p(
              'A launch cable moves the first connector out of the OTDR dead zone so it can be measured. Use one at least as long as the attenuation dead zone times ten, typically 500 m to 1 km.',
            ),
          },
          {
            title: 'Pulse width and range',
            minutes: 15,
            body: p(
              'Short pulses resolve nearby events; long pulses see further. Start with the range set to twice the link length and a pulse width the tester suggests.',
            ),
          },
        ],
      },
      {
        title: 'Reading the trace',
        lessons: [
          {
            title: 'The event table',
            minutes: 20,
            body:
              p('Each event has a distance, a loss and a reflectance.') +
              ul(
                'Reflective events: connectors and mechanical splices.',
                'Non-reflective events: fusion splices and bends.',
                'A “gainer” is a splice between fibers of different backscatter: average the two directions.',
              ),
          },
        ],
      },
    ],
    assignments: [
      {
        title: 'Find the fault',
        instructions: p(
          'Open the attached trace from the Riverside feeder and locate the break. Give the distance from the cabinet and the evidence in the event table.',
        ),
        dueInDays: 9,
        points: 25,
        latePolicy: 'refuse',
        fileKinds: ['pdf', 'image'],
        released: false,
      },
    ],
  },
  {
    courseId: 'gpon-provisioning',
    summary: p(
      'Configure OLTs and ONTs end to end: service profiles, VLAN plans, and the checks that prove a subscriber is really online.',
    ),
    enrolmentMode: 'manual',
    sections: [
      {
        title: 'GPON basics',
        lessons: [
          {
            title: 'Splitters, ODN and power budget',
            minutes: 20,
            body: p(
              'A 1:32 split costs about 17 dB. Class B+ optics allow 28 dB from OLT to ONT, which leaves roughly 11 dB for fiber, connectors and splices.',
            ),
          },
        ],
      },
    ],
    assignments: [],
  },
  {
    courseId: 'ftth-customer-care',
    summary: p(
      'Help subscribers through installation day and first-line faults: what to ask, what to check remotely, and when to send a technician.',
    ),
    enrolmentMode: 'open',
    sections: [
      {
        title: 'Installation day',
        lessons: [
          {
            title: 'Before the technician arrives',
            minutes: 10,
            body: ul(
              'Confirm the appointment window and the contact number.',
              'Explain where the ONT will go and that it needs a power socket.',
              'Check the order for a static IP or TV service.',
            ),
          },
          {
            title: 'No light on the ONT',
            minutes: 15,
            body: p(
              'A red LOS light means the ONT sees no light. Ask the customer to check the green connector is clicked in, then look at the OLT port: a whole port down is a network fault, one ONT is a drop cable fault.',
            ),
          },
        ],
      },
    ],
    assignments: [
      {
        title: 'Call script review',
        instructions: p(
          'Write the questions you would ask a customer whose internet stopped working this morning, in the order you would ask them.',
        ),
        dueInDays: 3,
        points: 10,
        latePolicy: 'mark_late',
        fileKinds: [],
        released: true,
      },
    ],
  },
];

/** Demo learners: field technicians of the Field Operations crew. */
const DEMO_LEARNERS = [
  ['jordan.lee', 'Jordan', 'Lee'],
  ['maria.gomez', 'María', 'Gómez'],
  ['tomasz.nowak', 'Tomasz', 'Nowak'],
  ['aisha.khan', 'Aisha', 'Khan'],
  ['liam.obrien', 'Liam', 'O’Brien'],
  ['mei.chen', 'Mei', 'Chen'],
] as const;

/** Seeds the classroom content once; returns whether it did. */
export async function seedDemoClassroom(db: Db, now = new Date()): Promise<boolean> {
  const existing = await db.selectFrom('course_sections').select('id').limit(1).execute();
  if (existing.length > 0) return false;
  const courses = await db.selectFrom('courses').select(['id']).execute();
  const known = new Set(courses.map((c) => c.id));
  if (!known.has('fiber-splicing-101')) return false;

  const at = now.toISOString();
  const t = now.getTime();
  const instructor = await findUserByUsername(db, 'instructor');
  const student = await findUserByUsername(db, 'student');
  const field = await findDepartment(db, 'Field Operations');

  // The crew.
  const learners: string[] = [];
  for (const [username, firstname, lastname] of DEMO_LEARNERS) {
    const found = await findUserByUsername(db, username);
    const user =
      found ??
      (await createUser(
        db,
        {
          username,
          firstname,
          lastname,
          email: `${username}@fiberco.example`,
          role: 'student',
          departmentId: field?.id ?? null,
          passwordHash: await hashPassword(randomBytes(24).toString('base64url')),
        },
        at,
      ));
    learners.push(user.id);
  }

  const enrol = async (userId: string, courseId: string) => {
    await upsertAssignment(db, {
      userId,
      context: { type: 'course', courseId },
      roles: ['course-student'],
      directPermissions: [],
      assignedBy: 'system',
      assignedAt: at,
      expiresAt: null,
      isActive: true,
    });
  };

  for (const content of DEMO_CLASSROOM) {
    if (!known.has(content.courseId)) continue;
    const summaryHtml = sanitizeRichText(content.summary);
    await db
      .updateTable('courses')
      .set({
        summary_html: summaryHtml,
        description: richTextToPlainText(summaryHtml).slice(0, 500),
        state: 'published',
        enrolment_mode: content.enrolmentMode,
        enrolment_key: content.enrolmentKey ?? null,
        capacity: content.capacity ?? null,
        created_by: instructor?.id ?? null,
        updated_at: at,
        published_at: at,
      })
      .where('id', '=', content.courseId)
      .execute();

    const lessonIds: string[] = [];
    for (const [s, section] of content.sections.entries()) {
      const sectionId = sortableId();
      await db
        .insertInto('course_sections')
        .values({
          id: sectionId,
          course_id: content.courseId,
          title: section.title,
          position: s,
          created_at: at,
        })
        .execute();
      for (const [l, lesson] of section.lessons.entries()) {
        const id = sortableId();
        lessonIds.push(id);
        await db
          .insertInto('lessons')
          .values({
            id,
            course_id: content.courseId,
            section_id: sectionId,
            title: lesson.title,
            body_html: sanitizeRichText(lesson.body),
            duration_minutes: lesson.minutes,
            position: l,
            created_at: at,
            updated_at: at,
          })
          .execute();
      }
    }
    await indexCourse(db, content.courseId);
    await indexCourseLessons(db, content.courseId);

    // The crew takes the two field courses; progress spreads from "just started" to "done".
    const crew =
      content.courseId.startsWith('fiber') || content.courseId.startsWith('otdr') ? learners : [];
    for (const [i, userId] of crew.entries()) {
      await enrol(userId, content.courseId);
      const done = Math.round(((i + 1) / crew.length) * lessonIds.length);
      for (const [k, lessonId] of lessonIds.slice(0, done).entries()) {
        await db
          .insertInto('lesson_progress')
          .values({
            user_id: userId,
            lesson_id: lessonId,
            course_id: content.courseId,
            viewed_at: new Date(t - (lessonIds.length - k) * DAY).toISOString(),
            completed_at: new Date(t - (lessonIds.length - k) * DAY).toISOString(),
          })
          .execute();
      }
    }
    // The demo student has started the courses they are enrolled in.
    const studentEnrolled =
      student &&
      (await db
        .selectFrom('context_assignments')
        .select('user_id')
        .where('user_id', '=', student.id)
        .where('context_key', '=', `course:${content.courseId}`)
        .executeTakeFirst());
    if (student && studentEnrolled && lessonIds[0]) {
      await db
        .insertInto('lesson_progress')
        .values({
          user_id: student.id,
          lesson_id: lessonIds[0],
          course_id: content.courseId,
          viewed_at: new Date(t - DAY).toISOString(),
          completed_at: new Date(t - DAY).toISOString(),
        })
        .execute();
    }

    for (const [a, assignment] of content.assignments.entries()) {
      const assignmentId = sortableId();
      const dueAt = new Date(t + assignment.dueInDays * DAY).toISOString();
      await db
        .insertInto('assignments')
        .values({
          id: assignmentId,
          course_id: content.courseId,
          title: assignment.title,
          instructions_html: sanitizeRichText(assignment.instructions),
          due_at: dueAt,
          points: assignment.points,
          submission_kinds: JSON.stringify(['text', 'file']),
          file_kinds: JSON.stringify(assignment.fileKinds),
          max_file_bytes: 25 * 1024 * 1024,
          late_policy: assignment.latePolicy,
          max_attempts: 3,
          grades_released: assignment.released ? 1 : 0,
          position: a,
          created_at: at,
          updated_at: at,
        })
        .execute();
      // The demo student handed in the work already due where they take the course, and it is
      // graded (their start page's recent grades).
      if (student && studentEnrolled && instructor && assignment.released && dueAt < at) {
        const submissionId = sortableId();
        const submittedAt = new Date(t + assignment.dueInDays * DAY - 3_600_000).toISOString();
        await db
          .insertInto('submissions')
          .values({
            id: submissionId,
            assignment_id: assignmentId,
            course_id: content.courseId,
            user_id: student.id,
            attempt: 1,
            status: 'submitted',
            text_html: sanitizeRichText(
              p('14 km × 0.35 dB + 4 × 0.3 dB + 9 × 0.05 dB = 6.55 dB: well within 15 dB.'),
            ),
            submitted_at: submittedAt,
            is_late: 0,
            created_at: submittedAt,
            updated_at: submittedAt,
          })
          .execute();
        const grade = {
          assignment_id: assignmentId,
          course_id: content.courseId,
          user_id: student.id,
          submission_id: submissionId,
          points: assignment.points - 2,
          feedback_html: sanitizeRichText(p('Right answer; show the margin you keep as well.')),
          graded_by: instructor.id,
          graded_at: new Date(t - 3_600_000).toISOString(),
          is_override: 0,
          revision: 1,
        };
        await db.insertInto('grades').values(grade).execute();
        await db
          .insertInto('grade_history')
          .values({ ...grade, id: sortableId() })
          .execute();
      }
      // Half the crew has handed in; the first two of them are graded, the latest hand-in waits.
      const handing = crew.slice(0, Math.ceil(crew.length / 2));
      for (const [i, userId] of handing.entries()) {
        const submissionId = sortableId();
        const submittedAt = new Date(t - (handing.length - i) * 3_600_000).toISOString();
        await db
          .insertInto('submissions')
          .values({
            id: submissionId,
            assignment_id: assignmentId,
            course_id: content.courseId,
            user_id: userId,
            attempt: 1,
            status: 'submitted',
            text_html: sanitizeRichText(
              p(
                'Done on the practice rig. Splices 1–12 all under 0.05 dB except fiber 7 (0.07 dB, re-spliced once).',
              ),
            ),
            submitted_at: submittedAt,
            is_late: 0,
            created_at: submittedAt,
            updated_at: submittedAt,
          })
          .execute();
        if (i < 2 && instructor) {
          const grade = {
            assignment_id: assignmentId,
            course_id: content.courseId,
            user_id: userId,
            submission_id: submissionId,
            points: assignment.points - i * 2,
            feedback_html: sanitizeRichText(
              p(i === 0 ? 'Clean work and a tidy log.' : 'Good. Label the tray next time.'),
            ),
            graded_by: instructor.id,
            graded_at: at,
            is_override: 0,
            revision: 1,
          };
          await db.insertInto('grades').values(grade).execute();
          await db
            .insertInto('grade_history')
            .values({ ...grade, id: sortableId() })
            .execute();
        }
      }
    }
  }

  // A draft the instructor is still building.
  if (instructor && !known.has('aerial-fiber-safety')) {
    await db
      .insertInto('courses')
      .values({
        id: 'aerial-fiber-safety',
        code: 'FO-130',
        title: 'Aerial Fiber and Working at Height',
        description: 'Ladders, pole steps and lashing fiber to the strand safely.',
        summary_html: '<p>Ladders, pole steps and lashing fiber to the strand safely.</p>',
        department_id: field?.id ?? null,
        created_at: at,
        state: 'draft',
        enrolment_mode: 'open',
        created_by: instructor.id,
        updated_at: at,
      })
      .execute();
    await indexCourse(db, 'aerial-fiber-safety');
    await upsertAssignment(db, {
      userId: instructor.id,
      context: { type: 'course', courseId: 'aerial-fiber-safety' },
      roles: ['course-instructor'],
      directPermissions: [],
      assignedBy: 'system',
      assignedAt: at,
      expiresAt: null,
      isActive: true,
    });
    const sectionId = sortableId();
    await db
      .insertInto('course_sections')
      .values({
        id: sectionId,
        course_id: 'aerial-fiber-safety',
        title: 'Before you climb',
        position: 0,
        created_at: at,
      })
      .execute();
  }
  return true;
}
