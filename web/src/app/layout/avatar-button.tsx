import type { PublicUser } from '@learning-hub/core';
import { Avatar, UnstyledButton, type UnstyledButtonProps } from '@mantine/core';
import type { ComponentPropsWithRef } from 'react';
import { displayName, initials } from '../../lib/format';

export type AvatarButtonProps = UnstyledButtonProps &
  ComponentPropsWithRef<'button'> & { user: PublicUser };

/**
 * The account menu's button: the avatar with the user's initials. The header shows it alone
 * until the menu is first wanted (app-layout.tsx), then as the menu's target (avatar-menu.tsx),
 * which adds the menu's props (and its ref) to it.
 */
export function AvatarButton({ user, ...props }: AvatarButtonProps) {
  const name = displayName(user);
  return (
    // The name contains the visible initials (axe: label-content-name-mismatch).
    <UnstyledButton
      aria-label={`Account menu for ${name}, ${initials(user)}`}
      style={{ borderRadius: '50%' }}
      {...props}
    >
      <Avatar color="brand" radius="xl" alt={name}>
        {initials(user)}
      </Avatar>
    </UnstyledButton>
  );
}
