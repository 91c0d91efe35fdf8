/**
 * The start page of someone who may open the admin area: shortcuts to its sections (in the admin
 * area's own words) and the latest failed sign-ins (GET /api/admin/sign-in-failures).
 */
import type { AuthMethod, SignInFailure } from '@learning-hub/core';
import { Alert, Card, Group, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ADMIN_SECTIONS } from '../../../lib/admin-sections';
import { AUTH_METHOD_LABELS } from '../../../lib/auth/auth-method';
import { errorMessage } from '../../classroom/course-format';
import { formatDateTime } from '../../../lib/format';
import { EmptyText, HomeSection, PlainList } from './home-section';

/** The admin sections the start page offers: people, roles, sign-in methods. */
const SHORTCUTS = ['/admin', '/admin/roles', '/admin/authentication'];

function methodLabel(method: string | null): string {
  if (!method) return 'Unknown method';
  return AUTH_METHOD_LABELS[method as AuthMethod] ?? method;
}

function Failures({ failures }: { failures: readonly SignInFailure[] }) {
  if (failures.length === 0) return <EmptyText>No failed sign-ins.</EmptyText>;
  return (
    <PlainList>
      {failures.map((f) => (
        <li key={f.id}>
          <Stack gap={0}>
            <Group justify="space-between" wrap="wrap" gap={4} align="baseline">
              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                {f.username ?? 'No username given'}
              </Text>
              <Text size="xs" c="dimmed">
                {formatDateTime(f.occurredAt)}
              </Text>
            </Group>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {f.reason ?? 'Refused'}
            </Text>
            <Text size="xs" c="dimmed">
              {methodLabel(f.method)}
            </Text>
          </Stack>
        </li>
      ))}
    </PlainList>
  );
}

export interface AdminSectionsProps {
  failures: readonly SignInFailure[] | undefined;
  status: 'pending' | 'error' | 'success';
  error: unknown;
}

export function AdminSections({ failures, status, error }: AdminSectionsProps) {
  const shortcuts = ADMIN_SECTIONS.filter((s) => SHORTCUTS.includes(s.to));
  return (
    <>
      <HomeSection id="home-admin" title="Administration">
        <SimpleGrid
          cols={{ base: 1, sm: 3 }}
          component="ul"
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
        >
          {shortcuts.map((section) => (
            <li key={section.to}>
              <Card component={Link} to={section.to} withBorder padding="md" h="100%">
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Text fw={600}>{section.label}</Text>
                  <IconChevronRight
                    size={18}
                    aria-hidden="true"
                    color="var(--mantine-color-dimmed)"
                  />
                </Group>
                <Text size="sm" c="dimmed">
                  {section.description}
                </Text>
              </Card>
            </li>
          ))}
        </SimpleGrid>
      </HomeSection>
      <HomeSection framed id="home-sign-in-failures" title="Latest sign-in failures">
        {status === 'pending' && <Loader size="sm" aria-label="Loading the sign-in failures" />}
        {status === 'error' && (
          <Alert color="red" role="alert">
            {errorMessage(error)}
          </Alert>
        )}
        {failures && <Failures failures={failures} />}
      </HomeSection>
    </>
  );
}
