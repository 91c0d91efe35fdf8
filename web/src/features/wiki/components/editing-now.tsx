/**
 * Who else has this page open in the editor now (the live channel's `wiki-editing` topic, with
 * presence): a line above the editor, so two people know before they save over each other's
 * work. The server lets into the topic only those who may edit the page.
 */
import { Alert, Avatar, Group, Text, Tooltip } from '@mantine/core';
import { IconUsers } from '@tabler/icons-react';
import { useState } from 'react';
import { useAuth } from '../../../lib/auth/auth-context';
import { useLiveTopic } from '../../../lib/live/use-live';

interface Presence {
  topic: string;
  id: string;
  people: { id: string; name: string }[];
}

function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => [...part][0]?.toUpperCase() ?? '')
    .join('');
}

export function EditingNow({ pageId }: { pageId: string }) {
  const me = useAuth().user?.id;
  const [people, setPeople] = useState<Presence['people']>([]);
  useLiveTopic<Presence>('wiki-editing', pageId, ['presence'], (_event, presence) =>
    setPeople(presence.people),
  );
  const others = people.filter((p) => p.id !== me);
  if (others.length === 0) return null;
  const names = others.map((p) => p.name);
  const text =
    names.length === 1
      ? `${names[0]} is editing this page now.`
      : `${names.slice(0, -1).join(', ')} and ${names.at(-1)} are editing this page now.`;
  return (
    <Alert color="yellow" variant="light" icon={<IconUsers size={18} aria-hidden="true" />}>
      <Group gap="sm" wrap="nowrap" justify="space-between">
        <Text size="sm" role="status">
          {text} Whoever saves second gets both versions to merge.
        </Text>
        <Avatar.Group spacing="sm">
          {others.slice(0, 4).map((p) => (
            <Tooltip key={p.id} label={p.name}>
              <Avatar size="sm" radius="xl" color="yellow" alt={p.name}>
                {initialsOf(p.name)}
              </Avatar>
            </Tooltip>
          ))}
        </Avatar.Group>
      </Group>
    </Alert>
  );
}
