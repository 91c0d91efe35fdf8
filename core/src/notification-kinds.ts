/**
 * The kinds of notification the hub raises, and how each reaches a person. Shared by the server
 * (which stores and delivers them) and the settings page (where each person chooses, per kind,
 * in-app, email or none). Plain data, no schemas: the settings page and the bell read it without
 * loading a contract module (docs/notifications.md).
 */

/** Every kind of notification, in the order the settings page lists them. */
export const NOTIFICATION_KINDS = [
  'announcement',
  'assignment.new',
  'assignment.due',
  'submission.graded',
  'enrolment.added',
  'enrolment.ending',
  'role.assigned',
  'role.expiring',
  'wiki.page-changed',
  'library.item-added',
  'account.password-changed',
  'account.new-sign-in',
  'test',
] as const;

/** One kind of notification (`assignment.new`, …). */
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** How a person wants one kind to reach them. */
export const NOTIFICATION_CHANNELS = ['in-app', 'email', 'none'] as const;
/**
 * `in-app`: the bell, the list and (for urgent ones) a toast. `email`: those and an email (urgent
 * ones at once, the rest in the daily digest). `none`: not at all.
 */
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** How much a notification asks for attention; urgent ones also show as a toast. */
export const NOTIFICATION_PRIORITIES = ['info', 'important', 'urgent'] as const;
export type NotificationPriority = (typeof NOTIFICATION_PRIORITIES)[number];

export interface NotificationKindInfo {
  /** The settings page's label. */
  label: string;
  /** One line under the label: when it is raised. */
  description: string;
  /**
   * A security notice about one's own account: it cannot be turned off (`none` is refused), only
   * moved between in-app and email.
   */
  required: boolean;
  /** The channel a person has until they choose. */
  defaultChannel: NotificationChannel;
}

/** What the settings page says about each kind, and its default. */
export const NOTIFICATION_KIND_INFO: Readonly<Record<NotificationKind, NotificationKindInfo>> = {
  announcement: {
    label: 'Announcements',
    description: 'An announcement is published to you.',
    required: false,
    defaultChannel: 'in-app',
  },
  'assignment.new': {
    label: 'New assignments',
    description: 'A course you take gets a new assignment.',
    required: false,
    defaultChannel: 'in-app',
  },
  'assignment.due': {
    label: 'Assignments due soon',
    description: 'An assignment you have not handed in is due within 24 hours.',
    required: false,
    defaultChannel: 'in-app',
  },
  'submission.graded': {
    label: 'Grades',
    description: 'A grade of yours is released.',
    required: false,
    defaultChannel: 'in-app',
  },
  'enrolment.added': {
    label: 'Enrolments',
    description: 'You are enrolled in a course.',
    required: false,
    defaultChannel: 'in-app',
  },
  'enrolment.ending': {
    label: 'Enrolments ending',
    description: 'Your enrolment in a course ends within 7 days.',
    required: false,
    defaultChannel: 'in-app',
  },
  'role.assigned': {
    label: 'Roles',
    description: 'You are given a role in a course or a department.',
    required: false,
    defaultChannel: 'in-app',
  },
  'role.expiring': {
    label: 'Roles expiring',
    description: 'A role of yours in a course or a department ends within 7 days.',
    required: false,
    defaultChannel: 'in-app',
  },
  'wiki.page-changed': {
    label: 'Followed wiki pages',
    description: 'Someone else changes a wiki page you follow.',
    required: false,
    defaultChannel: 'in-app',
  },
  'library.item-added': {
    label: 'Library',
    description: 'A document is added to the library of your department or of a course you take.',
    required: false,
    defaultChannel: 'in-app',
  },
  'account.password-changed': {
    label: 'Password changed',
    description: 'The password of your account is changed.',
    required: true,
    defaultChannel: 'in-app',
  },
  'account.new-sign-in': {
    label: 'New sign-ins',
    description: 'Someone signs in to your account from a new browser.',
    required: true,
    defaultChannel: 'in-app',
  },
  test: {
    label: 'Test notifications',
    description: 'An administrator sends a test notification from the notification demo.',
    required: false,
    defaultChannel: 'in-app',
  },
};
