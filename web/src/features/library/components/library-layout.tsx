import { Outlet } from 'react-router';

/** /library: the list (or the trash) or one item in the outlet. */
export function LibraryLayout() {
  return <Outlet />;
}
