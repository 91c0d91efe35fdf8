import { ActionIcon, Indicator } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { forwardRef, type ComponentPropsWithoutRef } from 'react';

/** The unread count as the badge shows it. */
export function unreadLabel(count: number): string {
  return count > 99 ? '99+' : String(count);
}

/** The bell: the unread count on a button, with the same name and state before and after its list loads. */
export const BellButton = forwardRef<HTMLButtonElement, BellButtonProps>(function BellButton(
  { unread, opened, ...props },
  ref,
) {
  const label = unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
  return (
    <Indicator label={unreadLabel(unread)} size={18} offset={6} disabled={unread === 0} color="red">
      <ActionIcon
        ref={ref}
        variant="subtle"
        color="gray"
        size="lg"
        aria-label={label}
        aria-expanded={opened}
        aria-haspopup="dialog"
        {...props}
      >
        <IconBell size={20} aria-hidden="true" />
      </ActionIcon>
    </Indicator>
  );
});

export type BellButtonProps = ComponentPropsWithoutRef<'button'> & {
  unread: number;
  opened: boolean;
};
