import type { Kysely } from 'kysely';

/**
 * The department pages (docs/departments.md). A department's members by account are read from
 * one index in the order the member list shows them (department, active, last name, first name,
 * username), with what the list shows, so a page of them is read without sorting the whole
 * department. Its members by assignment and its members' course enrolments are read from an index
 * of assignments by context and user with the columns of "in force". `context_type` finds the
 * department assignments of every department (the list's counts and managers) without reading
 * every course enrolment.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('users_department_members_idx')
    .on('users')
    .columns([
      'department_id',
      'is_active',
      'lastname',
      'firstname',
      'username_key',
      'username',
      'id',
    ])
    .execute();
  await db.schema
    .createIndex('context_assignments_context_user_idx')
    .on('context_assignments')
    .columns(['context_key', 'user_id', 'is_active', 'expires_at', 'roles'])
    .execute();
  await db.schema
    .createIndex('context_assignments_type_idx')
    .on('context_assignments')
    .columns(['context_type', 'context_key', 'user_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_department_members_idx').execute();
  await db.schema.dropIndex('context_assignments_type_idx').execute();
  await db.schema.dropIndex('context_assignments_context_user_idx').execute();
}
