/**
 * A list's search and filters. On a wide screen both show; on a phone (`usePhone`) the search
 * shows beside one "Filters" button (with how many are set) and the filters only when it is
 * pressed, so the first screen shows the list, not its filters (docs/front-end.md, "On a phone").
 */
import { Button, Group, Stack } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { useId, useState, type ReactNode } from 'react';
import { usePhone } from '../lib/use-phone';

export function PhoneFilters({
  search,
  active,
  children,
}: {
  /** The search field: always shown. */
  search: ReactNode;
  /** How many filters are set (the button says so). */
  active: number;
  /** The filters. */
  children: ReactNode;
}) {
  const phone = usePhone();
  const [shown, setShown] = useState(false);
  const id = useId();
  if (!phone) {
    return (
      <>
        {search}
        {children}
      </>
    );
  }
  return (
    <>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <div style={{ flex: 1, minWidth: 0 }}>{search}</div>
        <Button
          variant={shown ? 'light' : 'default'}
          leftSection={<IconFilter size={16} aria-hidden />}
          aria-expanded={shown}
          aria-controls={id}
          onClick={() => setShown((s) => !s)}
        >
          {active > 0 ? `Filters (${active})` : 'Filters'}
        </Button>
      </Group>
      {shown && (
        <Stack gap="sm" id={id}>
          {children}
        </Stack>
      )}
    </>
  );
}
