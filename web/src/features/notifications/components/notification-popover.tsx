/**
 * The bell's list in its popover (loaded at the bell's first press; app/layout/notification-bell.tsx).
 */
import { Popover } from '@mantine/core';
import { useState } from 'react';
import { BellButton } from '../../../app/layout/bell-button';
import { NotificationCentre } from './notification-centre';

export function NotificationPopover({
  unread,
  defaultOpened,
}: {
  unread: number;
  defaultOpened?: boolean;
}) {
  const [opened, setOpened] = useState(defaultOpened ?? false);
  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-end"
      width="min(380px, calc(100vw - 16px))"
      shadow="md"
      trapFocus
      returnFocus
    >
      <Popover.Target>
        <BellButton unread={unread} opened={opened} onClick={() => setOpened((o) => !o)} />
      </Popover.Target>
      <Popover.Dropdown p={0} aria-label="Notifications" role="dialog">
        {opened && <NotificationCentre onNavigate={() => setOpened(false)} />}
      </Popover.Dropdown>
    </Popover>
  );
}
