import { randomBytes } from 'node:crypto';
import { sql, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely } from 'kysely';

type Column = (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;

/**
 * The classroom (docs/classroom.md): the course record grows its life cycle and enrolment
 * settings; sections, lessons, per-learner lesson progress, assignments, submissions (one row per
 * attempt, the draft included) and grades (the current grade per learner and assignment, with
 * every earlier revision kept in grade_history). Enrolment itself is a `course-student` context
 * assignment (context_assignments), not a table of its own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Deployment secrets made once and shared by every instance (the key of signed file URLs).
  await db.schema
    .createTable('app_secrets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
  await sql`insert into app_secrets (id, value) values ('url-signing', ${randomBytes(32).toString('hex')})`.execute(
    db,
  );

  const courseColumns: [string, 'text' | 'integer', Column?][] = [
    ['summary_html', 'text', (c) => c.notNull().defaultTo('')],
    ['state', 'text', (c) => c.notNull().defaultTo('published')],
    ['enrolment_mode', 'text', (c) => c.notNull().defaultTo('open')],
    ['enrolment_key', 'text'],
    ['starts_at', 'text'],
    ['ends_at', 'text'],
    ['capacity', 'integer'],
    ['cover_file_id', 'text'],
    ['created_by', 'text'],
    ['updated_at', 'text'],
    ['published_at', 'text'],
    ['revision', 'integer', (c) => c.notNull().defaultTo(0)],
  ];
  for (const [name, type, build] of courseColumns) {
    await db.schema
      .alterTable('courses')
      .addColumn(name, type, build ?? ((c) => c))
      .execute();
  }
  await sql`update courses set updated_at = created_at, published_at = created_at`.execute(db);
  await db.schema
    .createIndex('courses_state_title_idx')
    .on('courses')
    .columns(['state', 'title'])
    .execute();
  await db.schema
    .createIndex('courses_department_idx')
    .on('courses')
    .column('department_id')
    .execute();

  // Learners enrolled per course (catalogue cards, capacity) read from the index alone.
  await db.schema
    .createIndex('context_assignments_course_roles_idx')
    .on('context_assignments')
    .columns(['context_key', 'is_active', 'expires_at', 'roles'])
    .execute();

  await db.schema
    .createTable('course_sections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('course_sections_course_idx')
    .on('course_sections')
    .columns(['course_id', 'position'])
    .execute();

  await db.schema
    .createTable('lessons')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('section_id', 'text', (c) =>
      c.notNull().references('course_sections.id').onDelete('cascade'),
    )
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body_html', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('duration_minutes', 'integer')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('lessons_course_idx')
    .on('lessons')
    .columns(['course_id', 'section_id', 'position'])
    .execute();

  await db.schema
    .createTable('lesson_progress')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('lesson_id', 'text', (c) => c.notNull().references('lessons.id').onDelete('cascade'))
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('viewed_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .addPrimaryKeyConstraint('lesson_progress_pk', ['user_id', 'lesson_id'])
    .execute();
  await db.schema
    .createIndex('lesson_progress_user_course_idx')
    .on('lesson_progress')
    .columns(['user_id', 'course_id'])
    .execute();
  await db.schema
    .createIndex('lesson_progress_user_viewed_idx')
    .on('lesson_progress')
    .columns(['user_id', 'viewed_at'])
    .execute();

  await db.schema
    .createTable('assignments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('instructions_html', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('due_at', 'text')
    .addColumn('points', 'integer', (c) => c.notNull())
    /** JSON array: `text`, `file`. */
    .addColumn('submission_kinds', 'text', (c) => c.notNull())
    /** JSON array of file kinds (core FILE_KINDS); empty: any. */
    .addColumn('file_kinds', 'text', (c) => c.notNull())
    .addColumn('max_file_bytes', 'bigint', (c) => c.notNull())
    .addColumn('late_policy', 'text', (c) => c.notNull())
    .addColumn('max_attempts', 'integer')
    .addColumn('grades_released', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('assignments_course_idx')
    .on('assignments')
    .columns(['course_id', 'position'])
    .execute();
  await db.schema.createIndex('assignments_due_idx').on('assignments').column('due_at').execute();

  await db.schema
    .createTable('submissions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('assignment_id', 'text', (c) =>
      c.notNull().references('assignments.id').onDelete('cascade'),
    )
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** 1, 2, … for handed-in attempts; 0 for the learner's one draft. */
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('text_html', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('submitted_at', 'text')
    .addColumn('is_late', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('submissions_attempt_unique', ['assignment_id', 'user_id', 'attempt'])
    .execute();
  await db.schema
    .createIndex('submissions_course_user_idx')
    .on('submissions')
    .columns(['course_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('submissions_assignment_status_idx')
    .on('submissions')
    .columns(['assignment_id', 'status'])
    .execute();

  const gradeColumns = <T extends string>(t: CreateTableBuilder<T>) =>
    t
      .addColumn('assignment_id', 'text', (c: ColumnDefinitionBuilder) =>
        c.notNull().references('assignments.id').onDelete('cascade'),
      )
      .addColumn('course_id', 'text', (c: ColumnDefinitionBuilder) =>
        c.notNull().references('courses.id').onDelete('cascade'),
      )
      .addColumn('user_id', 'text', (c: ColumnDefinitionBuilder) =>
        c.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('submission_id', 'text')
      .addColumn('points', 'real', (c: ColumnDefinitionBuilder) => c.notNull())
      .addColumn('feedback_html', 'text', (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(''))
      .addColumn('graded_by', 'text', (c: ColumnDefinitionBuilder) => c.notNull())
      .addColumn('graded_at', 'text', (c: ColumnDefinitionBuilder) => c.notNull())
      .addColumn('is_override', 'integer', (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0))
      .addColumn('revision', 'integer', (c: ColumnDefinitionBuilder) => c.notNull());
  await gradeColumns(db.schema.createTable('grades'))
    .addPrimaryKeyConstraint('grades_pk', ['assignment_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('grades_course_user_idx')
    .on('grades')
    .columns(['course_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('grades_user_graded_idx')
    .on('grades')
    .columns(['user_id', 'graded_at'])
    .execute();
  await gradeColumns(
    db.schema.createTable('grade_history').addColumn('id', 'text', (c) => c.primaryKey()),
  )
    .addUniqueConstraint('grade_history_revision_unique', ['assignment_id', 'user_id', 'revision'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'grade_history',
    'grades',
    'submissions',
    'assignments',
    'lesson_progress',
    'lessons',
    'course_sections',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await db.schema.dropIndex('context_assignments_course_roles_idx').ifExists().execute();
  await db.schema.dropIndex('courses_state_title_idx').ifExists().execute();
  await db.schema.dropIndex('courses_department_idx').ifExists().execute();
  for (const name of [
    'summary_html',
    'state',
    'enrolment_mode',
    'enrolment_key',
    'starts_at',
    'ends_at',
    'capacity',
    'cover_file_id',
    'created_by',
    'updated_at',
    'published_at',
    'revision',
  ]) {
    await db.schema.alterTable('courses').dropColumn(name).execute();
  }
}
