/** How announcements are worded and coloured everywhere in the app. */
import type {
  AnnouncementAudienceView,
  AnnouncementPriority,
  AnnouncementState,
} from '@learning-hub/core';
import { countText } from '../../lib/format';

export const PRIORITY_LABELS: Readonly<Record<AnnouncementPriority, string>> = {
  info: 'Info',
  important: 'Important',
  urgent: 'Urgent',
};

export const PRIORITY_COLORS: Readonly<Record<AnnouncementPriority, string>> = {
  info: 'blue',
  important: 'orange',
  urgent: 'red',
};

export const STATE_LABELS: Readonly<Record<AnnouncementState, string>> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  live: 'Live',
  expired: 'Expired',
  withdrawn: 'Withdrawn',
};

export const STATE_COLORS: Readonly<Record<AnnouncementState, string>> = {
  draft: 'gray',
  scheduled: 'violet',
  live: 'green',
  expired: 'gray',
  withdrawn: 'dark',
};

const ROLE_LABELS: Readonly<Record<string, string>> = {
  student: 'Students',
  instructor: 'Instructors',
  admin: 'Administrators',
};

/** A role as an audience: "Students", or a custom role's id. */
export const roleAudienceLabel = (role: string) => ROLE_LABELS[role] ?? role;

/** Who it is for, in a line: "Everyone", "Instructors · Field Operations · 2 people". */
export function audienceText(audience: AnnouncementAudienceView): string {
  if (audience.everyone) return 'Everyone';
  const parts = [
    ...audience.roles.map(roleAudienceLabel),
    ...audience.departments.map((d) => d.name),
    ...audience.courses.map((c) => c.name),
  ];
  if (audience.people.length === 1) parts.push(audience.people[0]?.name ?? '');
  else if (audience.people.length > 1) {
    parts.push(countText(audience.people.length, 'person', 'people'));
  }
  return parts.join(' · ');
}
