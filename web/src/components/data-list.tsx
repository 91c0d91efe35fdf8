/**
 * A list of records: a table on a wide screen, one card per record on a phone (`usePhone`), from
 * the same columns, data and actions (docs/front-end.md, "On a phone"). A table of many columns
 * cut off at a phone's edge hides what a reader came for; a card shows every field, labelled.
 */
import { Box, Group, Paper, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';
import { usePhone } from '../lib/use-phone';

/**
 * Where a column's value goes in a card:
 * - `title`: the card's first line, bold (the record's name or link);
 * - `subtitle`: under the title, dimmed;
 * - `aside`: beside the title (a badge, a status);
 * - `meta`: one line of short values joined by " · " (empty values are left out);
 * - `field` (the default): a line of its own, labelled with the column's header;
 * - `none`: not in the card (the title already says it).
 */
export type CardPlace = 'title' | 'subtitle' | 'aside' | 'meta' | 'field' | 'none';

export interface DataListColumn<T> {
  /** The column's header, and the field's label in a card. */
  header: string;
  /** The header is read by screen readers only (a column of controls). */
  hideHeader?: boolean;
  cell(row: T): ReactNode;
  /** The value in a card, when it differs from the table's cell. */
  cardCell?(row: T): ReactNode;
  card?: CardPlace;
  align?: 'right';
  width?: number | string;
  /** Long values (file names, errors) break anywhere instead of widening the table. */
  wrapAnywhere?: boolean;
}

export interface DataListProps<T> {
  rows: readonly T[];
  rowKey(row: T): string;
  columns: readonly DataListColumn<T>[];
  /** The row's controls: the last column of the table, the foot of the card. */
  actions?(row: T): ReactNode;
  /** The header of the actions column (read by screen readers only). */
  actionsHeader?: string;
  /** The accessible name of the table or list (or `labelledBy`). */
  label?: string;
  labelledBy?: string;
  /** The table's narrowest width; below it the table scrolls sideways (a tablet). */
  minWidth?: number;
  verticalSpacing?: 'xs' | 'sm' | 'md';
  /** Shown instead of the table or cards when there are no rows. */
  empty?: ReactNode;
  /** A wide screen's whole row opens the record (its link stays the keyboard's way there). */
  onRowClick?(row: T, event: React.MouseEvent<HTMLTableRowElement>): void;
}

const ANYWHERE: CSSProperties = { overflowWrap: 'anywhere' };

/** Marks the list for the e2e phone check (e2e/support/fixtures.ts, `expectFitsPhone`). */
export const DATA_LIST_ATTRIBUTE = 'data-card-list';

export function DataList<T>(props: DataListProps<T>) {
  const phone = usePhone();
  if (props.rows.length === 0 && props.empty) return <>{props.empty}</>;
  return phone ? <DataCards {...props} /> : <DataTable {...props} />;
}

function DataTable<T>({
  rows,
  rowKey,
  columns,
  actions,
  actionsHeader = 'Actions',
  label,
  labelledBy,
  minWidth,
  verticalSpacing = 'sm',
  onRowClick,
}: DataListProps<T>) {
  const table = (
    <Table
      verticalSpacing={verticalSpacing}
      highlightOnHover={!!onRowClick}
      aria-label={label}
      aria-labelledby={labelledBy}
      {...{ [DATA_LIST_ATTRIBUTE]: 'table' }}
    >
      <Table.Thead>
        <Table.Tr>
          {columns.map((column) => (
            <Table.Th key={column.header} scope="col" ta={column.align} w={column.width}>
              {column.hideHeader ? <VisuallyHidden>{column.header}</VisuallyHidden> : column.header}
            </Table.Th>
          ))}
          {actions && (
            <Table.Th scope="col">
              <VisuallyHidden>{actionsHeader}</VisuallyHidden>
            </Table.Th>
          )}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr
            key={rowKey(row)}
            style={onRowClick ? { cursor: 'pointer' } : undefined}
            onClick={onRowClick ? (event) => onRowClick(row, event) : undefined}
          >
            {columns.map((column) => (
              <Table.Td
                key={column.header}
                ta={column.align}
                style={column.wrapAnywhere ? ANYWHERE : undefined}
              >
                {column.cell(row)}
              </Table.Td>
            ))}
            {actions && <Table.Td>{actions(row)}</Table.Td>}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
  return minWidth ? (
    <Table.ScrollContainer minWidth={minWidth}>{table}</Table.ScrollContainer>
  ) : (
    table
  );
}

function isEmpty(value: ReactNode): boolean {
  return value === null || value === undefined || value === false || value === '';
}

function DataCards<T>({ rows, rowKey, columns, actions, label, labelledBy }: DataListProps<T>) {
  const place = (column: DataListColumn<T>) => column.card ?? 'field';
  const value = (column: DataListColumn<T>, row: T) => (column.cardCell ?? column.cell)(row);
  const titles = columns.filter((c) => place(c) === 'title');
  const subtitles = columns.filter((c) => place(c) === 'subtitle');
  const asides = columns.filter((c) => place(c) === 'aside');
  const metas = columns.filter((c) => place(c) === 'meta');
  const fields = columns.filter((c) => place(c) === 'field');
  return (
    <Stack
      component="ul"
      gap="xs"
      aria-label={label}
      aria-labelledby={labelledBy}
      style={{ listStyle: 'none', padding: 0, margin: 0 }}
      {...{ [DATA_LIST_ATTRIBUTE]: 'cards' }}
    >
      {rows.map((row) => {
        const meta = metas.map((c) => value(c, row)).filter((v) => !isEmpty(v));
        return (
          <Paper component="li" key={rowKey(row)} withBorder p="sm">
            <Stack gap={6}>
              <Group justify="space-between" wrap="wrap" gap="xs" align="flex-start">
                <div style={{ minWidth: 0, flex: '1 1 10rem' }}>
                  {titles.map((c) => (
                    <Box key={c.header} fw={500} style={ANYWHERE}>
                      {value(c, row)}
                    </Box>
                  ))}
                  {subtitles.map((c) => (
                    <Text key={c.header} component="div" size="sm" c="dimmed" style={ANYWHERE}>
                      {value(c, row)}
                    </Text>
                  ))}
                </div>
                {asides.map((c) => (
                  <div key={c.header}>{value(c, row)}</div>
                ))}
              </Group>
              {meta.length > 0 && (
                <Text size="sm">
                  {meta.map((v, index) => (
                    <span key={index}>
                      {index > 0 && ' · '}
                      {v}
                    </span>
                  ))}
                </Text>
              )}
              {fields.length > 0 && (
                <Box
                  component="dl"
                  m={0}
                  style={{
                    display: 'grid',
                    gridTemplateColumns: 'minmax(5.5rem, max-content) minmax(0, 1fr)',
                    columnGap: 'var(--mantine-spacing-sm)',
                    rowGap: 4,
                    fontSize: 'var(--mantine-font-size-sm)',
                  }}
                >
                  {fields.map((c) => (
                    <FieldRow key={c.header} label={c.header} value={value(c, row)} />
                  ))}
                </Box>
              )}
              {actions && <div>{actions(row)}</div>}
            </Stack>
          </Paper>
        );
      })}
    </Stack>
  );
}

function FieldRow({ label, value }: { label: string; value: ReactNode }) {
  return (
    <>
      <Text component="dt" size="sm" c="dimmed">
        {label}
      </Text>
      <Box component="dd" m={0} style={ANYWHERE}>
        {isEmpty(value) ? '—' : value}
      </Box>
    </>
  );
}
