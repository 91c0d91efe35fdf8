import { Outlet } from 'react-router';

/** /wiki: the home (or the trash), or one page and its history, editor and diffs, in the outlet. */
export function WikiLayout() {
  return <Outlet />;
}
