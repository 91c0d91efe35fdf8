/**
 * How the app refuses a page (spec §2; docs/spec-readings.md, "Access denials"). One mechanism
 * for every case: a guarded route the user lacks the requirement of (nested pages included: they
 * sit behind their parent's guard), and a page whose data the server refuses (403, a course the
 * user may not open). The user is sent to `/` with the denial in the history entry's state, and
 * the start page says which page was refused and why, in the words of the check that refused it.
 */
import { errorCode } from './api-client';

export interface AccessDenial {
  /** What was refused: a page title ('Admin Settings') or a thing ('this course'). */
  page: string;
  /** The check's own reason ('Missing required permission: system.admin'). */
  reason: string;
}

/** The history state a redirect to `/` carries. */
export function denialState(denial: AccessDenial): { accessDenied: AccessDenial } {
  return { accessDenied: { page: denial.page, reason: denial.reason } };
}

/** The denial a location's state carries, if any. */
export function denialOf(state: unknown): AccessDenial | null {
  if (typeof state !== 'object' || state === null) return null;
  const denial = (state as { accessDenied?: unknown }).accessDenied;
  if (typeof denial !== 'object' || denial === null) return null;
  const { page, reason } = denial as Record<string, unknown>;
  return typeof page === 'string' && typeof reason === 'string' ? { page, reason } : null;
}

/** The notice's words. */
export function denialText(denial: AccessDenial): string {
  return `You do not have access to ${denial.page}: ${denial.reason}`;
}

/** The server's reason when a request was refused for lack of permission (403), else null. */
export function forbiddenReason(error: unknown): string | null {
  return errorCode(error) === 'FORBIDDEN' && error instanceof Error ? error.message : null;
}
