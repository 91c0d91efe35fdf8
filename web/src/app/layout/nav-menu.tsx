import { NAV_ITEMS, type NavItem } from '@learning-hub/core';
import { Drawer, NavLink, Stack } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { useCan } from '../../lib/auth/use-can';

/** The nav items of core's NAV_ITEMS this user may see, in menu order. */
export function useVisibleNavItems(): NavItem[] {
  const can = useCan();
  return NAV_ITEMS.filter((item) => can.navItem(item));
}

export interface NavMenuProps {
  opened: boolean;
  onClose(): void;
  id: string;
}

/** The hamburger menu of spec §2, as a drawer. */
export function NavMenu({ opened, onClose, id }: NavMenuProps) {
  const items = useVisibleNavItems();
  const { pathname } = useLocation();
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      title="Learning Hub"
      size="xs"
      id={id}
      closeButtonProps={{ 'aria-label': 'Close navigation' }}
    >
      <nav aria-label="Main navigation">
        <Stack gap={2}>
          {items.map((item) => {
            const active = item.path === '/' ? pathname === '/' : pathname.startsWith(item.path);
            return (
              <NavLink
                key={item.path}
                component={Link}
                to={item.path}
                label={item.label}
                active={active}
                aria-current={active ? 'page' : undefined}
                onClick={onClose}
              />
            );
          })}
        </Stack>
      </nav>
    </Drawer>
  );
}
