import type { AdminUser } from '@learning-hub/core';
import { Select, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { fullName } from '../../../lib/format';
import { useAdminUser, useUserList } from '../api/users-api';

export const USER_SEARCH_SIZE = 20;

export function userOptionLabel(user: Pick<AdminUser, 'firstname' | 'lastname' | 'username'>) {
  const name = fullName(user);
  return name ? `${name} (${user.username})` : user.username;
}

export interface UserSearchSelectProps extends Omit<
  SelectProps,
  'data' | 'value' | 'onChange' | 'searchable'
> {
  value: string | null;
  onChange(userId: string | null): void;
}

/** A searchable user picker backed by GET /api/admin/users?search= (debounced). */
export function UserSearchSelect({ value, onChange, ...props }: UserSearchSelectProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [picked, setPicked] = useState<{ value: string; label: string } | null>(null);
  // A value set from outside (e.g. the URL) gets its label from the user it names.
  const known = picked?.value === value ? picked : null;
  const selected = useAdminUser(value && !known ? value : null);
  const current =
    known ?? (value && selected.data ? { value, label: userOptionLabel(selected.data) } : null);
  // The input shows the picked user's label: that is not a search.
  const query = current && debounced === current.label ? '' : debounced.trim();
  const list = useUserList({ search: query, page: 1, pageSize: USER_SEARCH_SIZE });

  const options = (list.data?.items ?? []).map((u) => ({ value: u.id, label: userOptionLabel(u) }));
  if (current && !options.some((o) => o.value === current.value)) options.unshift(current);

  return (
    <Select
      {...props}
      searchable
      clearable
      data={options}
      value={value}
      searchValue={search}
      onSearchChange={setSearch}
      // The server searches; every option it sends matches.
      filter={({ options: all }) => all}
      nothingFoundMessage={list.isFetching ? 'Searching…' : 'No users found'}
      onChange={(id, option) => {
        setPicked(option ? { value: option.value, label: option.label } : null);
        onChange(id);
      }}
    />
  );
}
