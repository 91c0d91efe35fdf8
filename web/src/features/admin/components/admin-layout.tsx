import { Anchor, Button, Group, Stack, Title } from '@mantine/core';
import { IconBroadcast, IconFlask, IconSpeakerphone } from '@tabler/icons-react';
import { Link, Outlet, useLocation } from 'react-router';
import { ADMIN_SECTIONS } from '../../../lib/admin-sections';

/** The admin's tools beside the settings (spec §2's admin pages that are built). */
const ADMIN_TOOLS = [
  { to: '/admin-test', label: 'Permission simulator', Icon: IconFlask },
  { to: '/announcement-manager', label: 'Announcement manager', Icon: IconSpeakerphone },
  { to: '/notification-demo', label: 'Notification demo', Icon: IconBroadcast },
] as const;

/** /admin: the Admin Settings area, its sections as a sub-navigation, the section in the outlet. */
export function AdminLayout() {
  const { pathname } = useLocation();
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <Title order={1}>Admin Settings</Title>
        <Group gap="md" wrap="wrap">
          {ADMIN_TOOLS.map(({ to, label, Icon }) => (
            <Anchor key={to} component={Link} to={to} size="sm">
              <Group gap={4} component="span" wrap="nowrap">
                <Icon size={16} aria-hidden="true" />
                {label}
              </Group>
            </Anchor>
          ))}
        </Group>
      </Group>
      <nav aria-label="Admin settings">
        <Group gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {ADMIN_SECTIONS.map((section) => {
            const active = section.matches(pathname);
            return (
              <li key={section.to}>
                <Button
                  component={Link}
                  to={section.to}
                  variant={active ? 'filled' : 'default'}
                  size="sm"
                  aria-current={active ? 'page' : undefined}
                >
                  {section.label}
                </Button>
              </li>
            );
          })}
        </Group>
      </nav>
      <Outlet />
    </Stack>
  );
}
