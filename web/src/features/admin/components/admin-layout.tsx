import { Anchor, Button, Group, Stack, Title } from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';
import { Link, Outlet, useLocation } from 'react-router';

interface Section {
  label: string;
  to: string;
  /** Whether the section is the one shown for a path. */
  matches(pathname: string): boolean;
}

export const ADMIN_SECTIONS: readonly Section[] = [
  {
    label: 'Users & Roles',
    to: '/admin',
    matches: (p) => p === '/admin' || p === '/admin/' || p.startsWith('/admin/users'),
  },
  { label: 'Roles', to: '/admin/roles', matches: (p) => p.startsWith('/admin/roles') },
  { label: 'Access changes', to: '/admin/audit', matches: (p) => p.startsWith('/admin/audit') },
  {
    label: 'Permission checks',
    to: '/admin/checks',
    matches: (p) => p.startsWith('/admin/checks'),
  },
  {
    label: 'Authentication',
    to: '/admin/authentication',
    matches: (p) => p.startsWith('/admin/authentication'),
  },
  { label: 'System', to: '/admin/system', matches: (p) => p.startsWith('/admin/system') },
];

/** /admin: the Admin Settings area, its sections as a sub-navigation, the section in the outlet. */
export function AdminLayout() {
  const { pathname } = useLocation();
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <Title order={1}>Admin Settings</Title>
        <Anchor component={Link} to="/admin-test" size="sm">
          <Group gap={4} component="span" wrap="nowrap">
            <IconFlask size={16} aria-hidden="true" />
            Permission simulator
          </Group>
        </Anchor>
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
