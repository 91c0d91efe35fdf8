/**
 * The database schema as Kysely sees it. Portable across SQLite and PostgreSQL: ids are text,
 * instants are ISO 8601 text (UTC, milliseconds; they sort and compare as text), booleans are
 * integers 0/1. Repositories map rows to domain objects.
 */
import type { Generated } from 'kysely';

export interface DepartmentsTable {
  /** Immutable id, the slug of its first name (e.g. `network-engineering`). */
  id: string;
  name: string;
  /** Sanitised rich-text HTML. */
  description: string;
  created_at: string;
  /** Its URL name, which follows a rename (null only for rows written before 0018: use the id). */
  slug: string | null;
  archived_at: string | null;
  /** One more with every change; a change names the revision it read (migration 0021). */
  revision: Generated<number>;
}

/** A department's former URL names: `/departments/{slug}` redirects to its current one. */
export interface DepartmentSlugsTable {
  slug: string;
  department_id: string;
  created_at: string;
}

export interface UsersTable {
  id: string;
  username: string;
  /** Lower-cased username, unique: sign-in looks accounts up case-insensitively. */
  username_key: string;
  email: string | null;
  firstname: string;
  lastname: string;
  role: string;
  department_id: string | null;
  avatar: string | null;
  /** argon2id PHC string; null for accounts that sign in elsewhere. */
  password_hash: string | null;
  auth_method: string;
  last_login: string | null;
  is_active: number;
  is_default_password: number;
  must_change_password: number;
  is_super_admin: number;
  created_at: string;
  updated_at: string;
  /** Changes with anything that changes this user's permissions. */
  access_version: Generated<number>;
  /** The provider (its id) a non-local account signs in with. */
  auth_source: string | null;
  /** The provider's id for the user: directory DN, Moodle user id, OIDC subject. */
  external_id: string | null;
  /** JSON array: the directory groups at the last sign-in. */
  ldap_groups: string | null;
  /** JSON object: the directory attributes read at the last sign-in. */
  ldap_attributes: string | null;
  moodle_id: number | null;
  sso_provider: string | null;
}

export interface SessionsTable {
  id: string;
  /** SHA-256 of the bearer token, hex; the token itself is never stored. */
  token_hash: string;
  user_id: string;
  method: string;
  created_at: string;
  expires_at: string;
  last_used_at: string;
  revoked_at: string | null;
  revoked_reason: string | null;
  ip_address: string | null;
  user_agent: string | null;
}

export interface AuthEventsTable {
  id: string;
  occurred_at: string;
  /** Always `server`: browsers' reports live in `client_auth_reports`. */
  source: string;
  event: string;
  username: string | null;
  /** The username's account key (NFKC, lower case): every spelling of one account. */
  username_key: string | null;
  user_id: string | null;
  auth_method: string | null;
  success: number | null;
  error: string | null;
  /** The client address the server saw. */
  address: string | null;
  /** What the client sent as ipAddress (always 'client-side'). */
  client_ip_address: string | null;
  client_timestamp: string | null;
  user_agent: string | null;
  request_id: string | null;
}

/** Auth log events as browsers reported them: their claims, kept apart from `auth_events`. */
export interface ClientAuthReportsTable {
  id: string;
  received_at: string;
  event: string;
  username: string;
  auth_method: string;
  error: string | null;
  /** The client address the server saw. */
  address: string;
  /** What the client sent as ipAddress (always 'client-side'). */
  client_ip_address: string;
  client_timestamp: string;
  user_agent: string;
  request_id: string;
}

export interface LoginThrottleTable {
  /** `pair:<address>|<username key>`, `account:<username key>` or `address:<address>`. */
  key: string;
  failures: number;
  /** When the current count began (fixed windows); null on counters from before it existed. */
  window_started_at: string | null;
  last_failure_at: string;
  blocked_until: string | null;
}

/** One row: the version of the custom role definitions. */
export interface AccessEpochTable {
  id: number;
  roles_version: number;
}

export interface CustomRolesTable {
  id: string;
  display_name: string;
  description: string;
  inherits: string;
  /** JSON array of permission ids. */
  permissions: string;
  priority: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface UserPermissionsTable {
  user_id: string;
  permission: string;
  granted_by: string | null;
  granted_at: string;
}

export interface CoursesTable {
  id: string;
  code: string;
  title: string;
  description: string;
  department_id: string | null;
  created_at: string;
  /** Sanitised rich text; `description` holds its plain text (cards, search). */
  summary_html: Generated<string>;
  /** draft | published | archived */
  state: Generated<string>;
  /** open | key | manual */
  enrolment_mode: Generated<string>;
  enrolment_key: string | null;
  starts_at: string | null;
  ends_at: string | null;
  capacity: number | null;
  cover_file_id: string | null;
  created_by: string | null;
  /** Null only on rows made before the classroom migration and never touched (it fills them). */
  updated_at: string | null;
  published_at: string | null;
  revision: Generated<number>;
}

/** A learner the course's staff removed or ended: no self-enrolment until enrolled again. */
export interface CourseEnrolmentBlocksTable {
  course_id: string;
  user_id: string;
  blocked_by: string;
  blocked_at: string;
}

export interface CourseSectionsTable {
  id: string;
  course_id: string;
  title: string;
  position: number;
  created_at: string;
}

export interface LessonsTable {
  id: string;
  course_id: string;
  section_id: string;
  title: string;
  /** Sanitised HTML. */
  body_html: string;
  duration_minutes: number | null;
  position: number;
  created_at: string;
  updated_at: string;
  /** One more with every change; a change names the revision it read (migration 0021). */
  revision: Generated<number>;
}

export interface LessonProgressTable {
  user_id: string;
  lesson_id: string;
  course_id: string;
  /** Last opened. */
  viewed_at: string;
  completed_at: string | null;
}

export interface AssignmentsTable {
  id: string;
  course_id: string;
  title: string;
  instructions_html: string;
  due_at: string | null;
  points: number;
  /** JSON array of `text` / `file`. */
  submission_kinds: string;
  /** JSON array of core FILE_KINDS; empty means any. */
  file_kinds: string;
  /** bigint: a string on PostgreSQL. */
  max_file_bytes: number | string;
  /** accept | mark_late | refuse */
  late_policy: string;
  max_attempts: number | null;
  grades_released: number;
  /** 1: saving a grade releases the assignment's grades (migration 0010). */
  release_on_save: Generated<number>;
  position: number;
  created_at: string;
  updated_at: string;
  /** One more with every change; a change names the revision it read (migration 0021). */
  revision: Generated<number>;
}

export interface SubmissionsTable {
  id: string;
  assignment_id: string;
  course_id: string;
  user_id: string;
  /** 1, 2, … for handed-in attempts; 0 for the learner's draft. */
  attempt: number;
  /** draft | submitted */
  status: string;
  text_html: string;
  submitted_at: string | null;
  is_late: number;
  created_at: string;
  updated_at: string;
}

/** The current grade of one learner for one assignment (grade_history keeps every revision). */
export interface GradesTable {
  assignment_id: string;
  course_id: string;
  user_id: string;
  submission_id: string | null;
  points: number;
  feedback_html: string;
  graded_by: string;
  graded_at: string;
  is_override: number;
  revision: number;
}

export interface GradeHistoryTable extends GradesTable {
  id: string;
}

/** Secrets the deployment made for itself (`url-signing`: the key of signed file URLs). */
export interface AppSecretsTable {
  id: string;
  /** Hex. */
  value: string;
}

export interface ContextAssignmentsTable {
  user_id: string;
  context_key: string;
  context_type: string;
  /** JSON array of context role ids. */
  roles: string;
  /** JSON array of permission ids. */
  direct_permissions: string;
  assigned_by: string;
  assigned_at: string;
  expires_at: string | null;
  is_active: number;
}

export interface AccessAuditTable {
  id: string;
  occurred_at: string;
  action: string;
  actor_id: string | null;
  actor_username: string | null;
  target_user_id: string | null;
  target_username: string | null;
  role_id: string | null;
  permission: string | null;
  context_key: string | null;
  /** JSON object. */
  details: string;
  request_id: string | null;
}

export interface AuthMethodsTable {
  method: string;
  enabled: number;
  updated_at: string;
}

export interface AuthProvidersTable {
  id: string;
  method: string;
  label: string;
  enabled: number;
  /** JSON settings. */
  settings: string;
  /** JSON secrets, write-only through the API. */
  secrets: string;
  created_at: string;
  updated_at: string;
}

export interface SsoFlowsTable {
  state_hash: string;
  provider_id: string;
  code_verifier: string;
  nonce: string;
  purpose: string;
  return_to: string | null;
  actor_id: string | null;
  test_id: string | null;
  result: string | null;
  created_at: string;
  expires_at: string;
  consumed_at: string | null;
}

export interface SsoCodesTable {
  code_hash: string;
  user_id: string;
  provider_id: string;
  created_at: string;
  expires_at: string;
  consumed_at: string | null;
}

/** A stored file (server/src/platform/storage); its bytes live in the file store under storage_key. */
export interface FilesTable {
  id: string;
  /** The object's key in the file store. */
  storage_key: string;
  /** The name it was uploaded with, sanitised (no path, no control or bidi characters). */
  original_name: string;
  /** Detected from the content at upload. */
  mime: string;
  /** Bytes; bigint in PostgreSQL (read back as a string there, see file-repository). */
  size: number | string;
  /** SHA-256 of the content, hex (also the download's ETag). */
  sha256: string;
  uploaded_by: string;
  created_at: string;
  /** What the file belongs to (`lesson`, `submission`, …); null until attached. */
  owner_type: string | null;
  owner_id: string | null;
  attached_at: string | null;
  /** A ≤ 320 px WebP in the same store, for images. */
  thumbnail_key: string | null;
}

/** One row per person who has uploaded: written first by each reservation, to decide it alone. */
export interface UploadQuotaLocksTable {
  user_id: string;
  locked_at: string;
}

/** Bytes an upload in flight may take, counted against its uploader's limits until it is stored. */
export interface UploadReservationsTable {
  id: string;
  user_id: string;
  /** bigint in PostgreSQL (read back as a string there). */
  bytes: number | string;
  created_at: string;
}

/** A background job on SQLite (server/src/platform/jobs/sqlite-job-service.ts); empty on PostgreSQL. */
export interface JobsTable {
  id: string;
  /** The job's name, which names its handler. */
  name: string;
  /** JSON of the job's data (validated by the job's schema when sent and when run). */
  data: string;
  /** created | retry | active | completed | failed */
  state: string;
  /** Attempts started so far. */
  attempts: Generated<number>;
  /** Attempts allowed: the first plus the retries (an admin's retry adds one). */
  max_attempts: number;
  singleton_key: string | null;
  /** Not run before this instant (scheduled jobs, the backoff of a retry). */
  start_after: string;
  /** While active: the worker's lease; past it, the job is taken back (its worker died). */
  locked_until: string | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  last_error: string | null;
}

/**
 * The search index (migration 0013, docs/search.md): one row per searchable thing, its scope
 * columns and its plain text. SQLite adds `seq` (the FTS5 rowid), PostgreSQL the `tsv` column;
 * only server/src/platform/search reads those.
 */
export interface SearchDocumentsTable {
  doc_type: string;
  doc_id: string;
  /** The course a course or lesson belongs to (the scope its visibility is decided by). */
  course_id: string | null;
  /** The department a department-scoped library item belongs to (migration 0014). */
  department_id: string | null;
  title: string;
  body: string;
}

/** Library categories (migration 0014): `name_key` is the name in lower case, unique. */
export interface LibraryCategoriesTable {
  id: string;
  name: string;
  name_key: string;
  created_at: string;
}

/**
 * Library items (migration 0014, docs/library.md). `scope_type` is `everyone`, `department`
 * (`department_id`) or `course` (`course_id`); `url` for a link, else the file is the current
 * version's (`library_versions`). `deleted_at` set: in the trash.
 */
/** A wiki page (docs/wiki.md); `html` and `revision` copy its latest revision. */
export interface WikiPagesTable {
  id: string;
  /** `company`, `department:<id>` or `course:<id>`. */
  space_key: string;
  space_type: 'company' | 'department' | 'course';
  department_id: string | null;
  course_id: string | null;
  parent_id: string | null;
  position: Generated<number>;
  title: string;
  title_key: string;
  status: 'draft' | 'published';
  html: Generated<string>;
  revision: Generated<number>;
  view_count: Generated<number>;
  created_by: string;
  created_at: string;
  updated_by: string;
  updated_at: string;
  deleted_at: string | null;
  deleted_by: string | null;
}

/** Every save of a wiki page; `number` is unique per page. */
export interface WikiRevisionsTable {
  id: string;
  page_id: string;
  number: number;
  title: string;
  html: string;
  summary: Generated<string>;
  status: 'draft' | 'published';
  author_id: string;
  created_at: string;
  restored_from: number | null;
  size: Generated<number>;
}

/** A link from a page's current revision to another page, by id or by space and title. */
export interface WikiLinksTable {
  from_page_id: string;
  to_page_id: string | null;
  to_space_key: string | null;
  to_title_key: string | null;
}

export interface WikiFollowsTable {
  page_id: string;
  user_id: string;
  created_at: string;
}

export interface LibraryItemsTable {
  id: string;
  kind: string;
  title: string;
  description_html: Generated<string>;
  category_id: string | null;
  scope_type: string;
  department_id: string | null;
  course_id: string | null;
  url: string | null;
  current_version: Generated<number>;
  created_by: string;
  created_at: string;
  updated_at: string;
  updated_by: string;
  deleted_at: string | null;
  deleted_by: string | null;
  view_count: Generated<number>;
  download_count: Generated<number>;
  /** One more with every change; a change names the revision it read (migration 0021). */
  revision: Generated<number>;
}

export interface LibraryItemTagsTable {
  item_id: string;
  tag: string;
}

/** The versions of an item's file; `text_state` `none` | `pending` | `extracted` | `failed`. */
export interface LibraryVersionsTable {
  id: string;
  item_id: string;
  version: number;
  file_id: string;
  created_by: string;
  created_at: string;
  text_state: Generated<string>;
  text_error: string | null;
  extracted_text: string | null;
}

/** Admin → System settings (migration 0020): one row per setting changed from its default. */
/** One thing announced to people (docs/notifications.md). */
export interface NotificationEventsTable {
  id: string;
  kind: string;
  priority: string;
  title: string;
  /** Plain text. */
  body: string;
  /** An app path to the thing, or null. */
  link: string | null;
  /** What it is about (`announcement` and its id), for an area's counts; null for none. */
  source_type: string | null;
  source_id: string | null;
  actor_id: string | null;
  recipient_count: number;
  created_at: string;
  /** When an instance sent it on the live channel; null: not yet (the outbox). */
  dispatched_at: string | null;
}

/** One person's copy of an event: delivered, read, emailed. */
export interface NotificationsTable {
  user_id: string;
  event_id: string;
  delivered_at: string | null;
  read_at: string | null;
  /** 'pending' until the mailer sends it, 'sent' after; null: not by email. */
  email: string | null;
}

/** One announcement (migration 0024, docs/announcements.md). */
export interface AnnouncementsTable {
  id: string;
  title: string;
  /** Sanitised rich text. */
  body_html: string;
  /** `info`, `important` or `urgent`. */
  priority: string;
  pinned: number;
  requires_ack: number;
  /** `draft`, `scheduled`, `live` or `withdrawn` (expired is derived from `expires_at`). */
  status: string;
  /** JSON: the audience as chosen ({ everyone, roles, departmentIds, courseIds, userIds }). */
  audience: string;
  publish_at: string | null;
  published_at: string | null;
  expires_at: string | null;
  withdrawn_at: string | null;
  /** Its last reminder; at most one an hour. */
  reminded_at: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
  revision: Generated<number>;
}

/** The courses and departments an announcement's audience names (`course` | `department`). */
export interface AnnouncementTargetsTable {
  announcement_id: string;
  target_type: string;
  target_id: string;
}

/** One person an announcement was published to. */
export interface AnnouncementRecipientsTable {
  announcement_id: string;
  user_id: string;
  acknowledged_at: string | null;
  reminded_at: string | null;
}

/** A notice that goes out once: its key, taken in the notice's transaction. */
export interface NotificationMarksTable {
  key: string;
  created_at: string;
}

export interface SystemSettingsTable {
  key: string;
  /** JSON. */
  value: string;
  updated_at: string;
  /** The username of the admin who changed it last. */
  updated_by: string | null;
}

/** A person's display settings (migration 0022; docs/settings.md): one row once they save. */
export interface UserSettingsTable {
  user_id: string;
  /** JSON: colorScheme, timeZone, dateFormat, startPage, reducedMotion (core's DisplaySettings). */
  value: string;
  updated_at: string;
}

/** A notification channel a person chose other than the kind's default (migration 0022). */
export interface UserNotificationChannelsTable {
  user_id: string;
  /** core's NotificationKind. */
  kind: string;
  /** core's NotificationChannel: `in-app`, `email` or `none`. */
  channel: string;
}

export interface Database {
  departments: DepartmentsTable;
  users: UsersTable;
  sessions: SessionsTable;
  auth_events: AuthEventsTable;
  client_auth_reports: ClientAuthReportsTable;
  login_throttle: LoginThrottleTable;
  access_epoch: AccessEpochTable;
  custom_roles: CustomRolesTable;
  user_permissions: UserPermissionsTable;
  courses: CoursesTable;
  context_assignments: ContextAssignmentsTable;
  access_audit: AccessAuditTable;
  auth_methods: AuthMethodsTable;
  auth_providers: AuthProvidersTable;
  sso_flows: SsoFlowsTable;
  sso_codes: SsoCodesTable;
  files: FilesTable;
  upload_quota_locks: UploadQuotaLocksTable;
  upload_reservations: UploadReservationsTable;
  course_sections: CourseSectionsTable;
  course_enrolment_blocks: CourseEnrolmentBlocksTable;
  lessons: LessonsTable;
  lesson_progress: LessonProgressTable;
  assignments: AssignmentsTable;
  submissions: SubmissionsTable;
  grades: GradesTable;
  grade_history: GradeHistoryTable;
  app_secrets: AppSecretsTable;
  jobs: JobsTable;
  search_documents: SearchDocumentsTable;
  library_categories: LibraryCategoriesTable;
  library_items: LibraryItemsTable;
  library_item_tags: LibraryItemTagsTable;
  library_versions: LibraryVersionsTable;
  department_slugs: DepartmentSlugsTable;
  wiki_pages: WikiPagesTable;
  wiki_revisions: WikiRevisionsTable;
  wiki_links: WikiLinksTable;
  wiki_follows: WikiFollowsTable;
  system_settings: SystemSettingsTable;
  user_settings: UserSettingsTable;
  user_notification_channels: UserNotificationChannelsTable;
  notification_events: NotificationEventsTable;
  notifications: NotificationsTable;
  notification_marks: NotificationMarksTable;
  announcements: AnnouncementsTable;
  announcement_targets: AnnouncementTargetsTable;
  announcement_recipients: AnnouncementRecipientsTable;
}
