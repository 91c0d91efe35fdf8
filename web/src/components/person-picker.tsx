/**
 * Choosing one person in a dialog that adds people (a department's members, a course's
 * participants): a search field, the people found as buttons, then "Adding …" with "Choose
 * someone else". The area keeps the search and the choice, runs its own candidates query and
 * passes what it answered.
 */
import { Button, Group, Loader, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { ErrorAlert } from './query-state';

export interface PickablePerson {
  id: string;
  username: string;
}

export interface PersonPickerProps<P extends PickablePerson> {
  search: string;
  onSearch(search: string): void;
  chosen: P | null;
  /** A person found was chosen, or (null) "Choose someone else". */
  onChoose(person: NoInfer<P> | null): void;
  /** The search's answer: still searching, its error, the people found (undefined: none yet). */
  results: { searching: boolean; error: unknown; people: readonly NoInfer<P>[] | undefined };
  /** The name shown for a person. */
  nameOf(person: NoInfer<P>): string;
  /** What an empty answer says ("Nobody found by that name."). */
  nobody: string;
  /** A found person's button's name; "Choose {name} ({username})" by default. */
  labelOf?(person: NoInfer<P>): string;
  /** More about a person found: a line under the name, and a mark beside it. */
  detailOf?(person: NoInfer<P>): ReactNode;
  markOf?(person: NoInfer<P>): ReactNode;
}

export function PersonPicker<P extends PickablePerson>({
  search,
  onSearch,
  chosen,
  onChoose,
  results,
  nameOf,
  nobody,
  labelOf = (person) => `Choose ${nameOf(person)} (${person.username})`,
  detailOf,
  markOf,
}: PersonPickerProps<P>) {
  if (chosen) {
    return (
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text>
          {`Adding ${nameOf(chosen)} `}
          <Text span c="dimmed">{`(${chosen.username})`}</Text>
        </Text>
        <Button variant="subtle" size="xs" onClick={() => onChoose(null)}>
          Choose someone else
        </Button>
      </Group>
    );
  }
  const { searching, error, people } = results;
  return (
    <Stack gap="xs">
      <TextInput
        label="Search people"
        placeholder="Name or username"
        leftSection={<IconSearch size={16} aria-hidden />}
        value={search}
        onChange={(event) => onSearch(event.currentTarget.value)}
        data-autofocus
      />
      {error ? <ErrorAlert error={error} /> : null}
      {searching && <Loader size="xs" aria-label="Searching" />}
      {people && people.length === 0 && (
        <Text size="sm" c="dimmed">
          {nobody}
        </Text>
      )}
      {people && people.length > 0 && (
        <Stack
          component="ul"
          gap={2}
          aria-label="People found"
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
        >
          {people.map((person) => (
            <li key={person.id}>
              <UnstyledButton
                onClick={() => onChoose(person)}
                p="xs"
                w="100%"
                style={{ borderRadius: 'var(--mantine-radius-sm)' }}
                aria-label={labelOf(person)}
              >
                <Group justify="space-between" wrap="wrap" gap={4}>
                  <div>
                    <Text size="sm">
                      {nameOf(person)}{' '}
                      <Text span c="dimmed" size="sm">
                        {person.username}
                      </Text>
                    </Text>
                    {detailOf && (
                      <Text size="xs" c="dimmed">
                        {detailOf(person)}
                      </Text>
                    )}
                  </div>
                  {markOf?.(person)}
                </Group>
              </UnstyledButton>
            </li>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
