/** Work with a due date (GET /api/me/learning's dueSoon / overdue), linked to the assignment. */
import type { LearningOverview } from '@learning-hub/core';
import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';

import { formatDateTime } from '../lib/format';
import { href } from '../lib/links';

type DueItem = LearningOverview['dueSoon'][number];

export function DueList({ items, empty }: { items: readonly DueItem[]; empty: string }) {
  if (items.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  }
  return (
    <Stack component="ul" gap="xs" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {items.map((item) => (
        <li key={item.assignmentId}>
          <Group justify="space-between" wrap="wrap" gap={4} align="flex-start">
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Anchor
                component={Link}
                to={href('assignment', {
                  courseId: item.courseId,
                  assignmentId: item.assignmentId,
                })}
              >
                {item.assignmentTitle}
              </Anchor>
              <Text size="xs" c="dimmed">
                {item.courseTitle}
              </Text>
            </Stack>
            <Group gap={6}>
              {item.overdue && (
                <Badge color="red" variant="light" tt="none">
                  Overdue
                </Badge>
              )}
              <Text size="sm">{`Due ${formatDateTime(item.dueAt)}`}</Text>
            </Group>
          </Group>
        </li>
      ))}
    </Stack>
  );
}
