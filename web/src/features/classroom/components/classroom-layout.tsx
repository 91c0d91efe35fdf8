import { Outlet } from 'react-router';

/** /classroom: the catalogue, a course, a lesson or an assignment in the outlet. */
export function ClassroomLayout() {
  return <Outlet />;
}
