import { Navigate } from 'react-router';
import { denialState, type AccessDenial } from '../lib/access-denial';

/**
 * Sends the user away from a page they may not open, with the notice of what was refused and why
 * (lib/access-denial.ts). The route guard sends them to `/` (spec §2's default), and so does a
 * page whose course the server refuses; a page inside a course the user can see (a lesson, an
 * assignment) sends them to that course's page instead, where they can enrol.
 */
export function AccessDeniedRedirect({ page, reason, to = '/' }: AccessDenial & { to?: string }) {
  return <Navigate to={to} replace state={denialState({ page, reason })} />;
}
