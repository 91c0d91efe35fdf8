import type { PublicUser } from '@learning-hub/core';
import { Box, Menu, Text } from '@mantine/core';
import { IconLogout, IconUserCircle } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { useAuth } from '../../lib/auth/auth-context';
import { browserNavigation } from '../../lib/browser';
import { displayName } from '../../lib/format';
import { AvatarButton } from './avatar-button';

/** Shown for a user with no department (spec §2). */
export const NO_DEPARTMENT_LABEL = 'Student';

/**
 * The avatar and its menu: name, department, Profile Settings and Logout (spec §2). Loaded and
 * mounted when the menu is first wanted, then open (`defaultOpened`; app-layout.tsx).
 */
export function AvatarMenu({ user, defaultOpened }: { user: PublicUser; defaultOpened?: boolean }) {
  const auth = useAuth();
  const navigate = useNavigate();
  const name = displayName(user);

  const logout = async () => {
    // The server call first; /learning/logout then clears this browser's session either way.
    const result = await auth.logout();
    if (result.redirectTo) {
      // Moodle sign-ins end on the Moodle site's logout page (spec §4), this browser's state
      // cleared first.
      auth.signOutLocally();
      browserNavigation.assign(result.redirectTo);
      return;
    }
    await navigate('/learning/logout', { replace: true });
  };

  return (
    // No initial-focus placeholder: that focusable role=presentation div is not an allowed child
    // of role=menu (axe: aria-required-children).
    <Menu
      position="bottom-end"
      width={240}
      withArrow
      withInitialFocusPlaceholder={false}
      defaultOpened={defaultOpened}
    >
      <Menu.Target>
        <AvatarButton user={user} />
      </Menu.Target>
      <Menu.Dropdown>
        {/* Plain divs: a paragraph is not an allowed child of role=menu. */}
        <Box px="sm" py="xs">
          <Text component="div" fw={600} size="sm">
            {name}
          </Text>
          <Text component="div" size="xs" c="dimmed">
            {user.department ?? NO_DEPARTMENT_LABEL}
          </Text>
        </Box>
        <Menu.Divider />
        <Menu.Item
          component={Link}
          to="/profile-settings"
          leftSection={<IconUserCircle size={16} aria-hidden="true" />}
        >
          Profile Settings
        </Menu.Item>
        <Menu.Item
          leftSection={<IconLogout size={16} aria-hidden="true" />}
          onClick={() => void logout()}
        >
          Logout
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
