/**
 * A course's gradebook tab (docs/classroom.md, "Grades"): for those who see every grade, learners
 * × assignments with late and override markers, totals, search and paging, overriding a cell
 * (grade.edit) and exporting CSV (grade.export); for a learner, only their own released grades.
 */
import { GradeOverrideSchema, type CourseDetail, type Gradebook } from '@learning-hub/core';
import {
  Badge,
  Button,
  Group,
  NumberInput,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { FormActions, FormModal, FormStack } from '../../../components/form-modal';
import { Pager } from '../../../components/pager';
import { useGradebook, useOverrideGrade } from '../api/assignments-api';
import { downloadToDisk } from '../../../lib/upload';
import { releaseStateWords } from './grade-release';
import { fieldErrors, firstError } from '../../../lib/form-errors';
import { QueryState } from '../../../components/query-state';

const PAGE_SIZE = 25;

type Row = Gradebook['items'][number];
type Column = Gradebook['assignments'][number];
type Cell = NonNullable<Row['grades'][string]>;

const percentText = (p: number | null) => (p === null ? '—' : `${Math.round(p)}%`);

export function CourseGradebook({ course }: { course: CourseDetail }) {
  return course.viewer.canViewAllGrades ? (
    <StaffGradebook course={course} />
  ) : (
    <OwnGrades course={course} />
  );
}

function CellMarks({ cell }: { cell: Cell }) {
  return (
    <>
      {cell.late && (
        <Badge size="xs" color="red" variant="light" ml={4}>
          Late
        </Badge>
      )}
      {cell.override && (
        <Badge size="xs" color="grape" variant="light" ml={4}>
          Override
        </Badge>
      )}
    </>
  );
}

function StaffGradebook({ course }: { course: CourseDetail }) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [page, setPage] = useState(1);
  const book = useGradebook(course.id, { search: debounced, page, pageSize: PAGE_SIZE });
  const [editing, setEditing] = useState<{ row: Row; column: Column } | null>(null);
  const [exporting, setExporting] = useState(false);
  const canEdit = course.viewer.canEditGrades;

  async function exportCsv() {
    setExporting(true);
    try {
      await downloadToDisk(
        `/api/courses/${encodeURIComponent(course.id)}/grades.csv`,
        `${course.code}-grades.csv`,
      );
    } catch (error) {
      notifications.show({
        color: 'red',
        title: "Couldn't export the grades",
        message: error instanceof Error ? error.message : 'Something went wrong',
      });
    } finally {
      setExporting(false);
    }
  }

  const data = book.data;
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>Gradebook</Title>
        {course.viewer.canExportGrades && (
          <Button
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden />}
            loading={exporting}
            onClick={() => void exportCsv()}
          >
            Export CSV
          </Button>
        )}
      </Group>
      <TextInput
        label="Search learners"
        placeholder="Name or username"
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setPage(1);
        }}
        maw={360}
      />
      <QueryState
        query={book}
        label="Loading the gradebook"
        errorTitle="Couldn't load the gradebook"
      />
      {data && data.items.length === 0 && (
        <Text>{debounced ? 'No learner matches the search.' : 'No learners yet.'}</Text>
      )}
      {data && data.items.length > 0 && (
        <Table.ScrollContainer minWidth={Math.max(480, 200 + data.assignments.length * 120)}>
          <Table aria-label="Gradebook" striped withColumnBorders>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Learner</Table.Th>
                {data.assignments.map((a) => (
                  <Table.Th key={a.id} scope="col">
                    {a.title}
                    <Text size="xs" c="dimmed">
                      {`out of ${a.points}`}
                    </Text>
                    <Badge
                      size="xs"
                      variant="light"
                      color={a.gradesReleased ? 'green' : 'yellow'}
                      tt="none"
                    >
                      {releaseStateWords(a)}
                    </Badge>
                  </Table.Th>
                ))}
                <Table.Th scope="col">Total</Table.Th>
                <Table.Th scope="col">Percent</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.items.map((row) => (
                <Table.Tr key={row.userId}>
                  <Table.Th scope="row">
                    {row.name}
                    <Text size="xs" c="dimmed">
                      {row.username}
                    </Text>
                  </Table.Th>
                  {data.assignments.map((column) => {
                    const cell = row.grades[column.id] ?? null;
                    const content = (
                      <>
                        {cell ? cell.points : '—'}
                        {cell && <CellMarks cell={cell} />}
                      </>
                    );
                    return (
                      <Table.Td key={column.id}>
                        {canEdit ? (
                          <UnstyledButton
                            aria-label={`Override ${row.name}, ${column.title}: ${cell ? cell.points : 'no grade'}`}
                            onClick={() => setEditing({ row, column })}
                            style={{ textDecoration: 'underline dotted' }}
                          >
                            {content}
                          </UnstyledButton>
                        ) : (
                          content
                        )}
                      </Table.Td>
                    );
                  })}
                  <Table.Td>{row.totalPoints ?? '—'}</Table.Td>
                  <Table.Td>{percentText(row.percent)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {data && (
        <Pager
          label="Gradebook pages"
          page={page}
          total={data.total}
          pageSize={data.pageSize}
          onChange={setPage}
        />
      )}
      {editing && (
        <OverrideModal
          courseId={course.id}
          row={editing.row}
          column={editing.column}
          onClose={() => setEditing(null)}
        />
      )}
    </Stack>
  );
}

function OverrideModal({
  courseId,
  row,
  column,
  onClose,
}: {
  courseId: string;
  row: Row;
  column: Column;
  onClose(): void;
}) {
  const override = useOverrideGrade(courseId);
  const cell = row.grades[column.id] ?? null;
  const [points, setPoints] = useState<number | ''>(cell?.points ?? '');
  const [error, setError] = useState<string | null>(null);

  function submit() {
    if (points === '') {
      setError('Enter the points');
      return;
    }
    if (points > column.points) {
      setError(`The points cannot be more than ${column.points}`);
      return;
    }
    const parsed = GradeOverrideSchema.safeParse({ points });
    if (!parsed.success) {
      setError(firstError(fieldErrors(parsed.error)) ?? 'Check the points');
      return;
    }
    setError(null);
    override.mutate(
      { assignmentId: column.id, userId: row.userId, input: parsed.data },
      {
        onSuccess: (g) => {
          notifications.show({
            color: 'green',
            title: 'Grade overridden',
            message: `${row.name}, ${column.title}: ${g.points} / ${g.maxPoints}${
              g.released ? '' : '. Learners cannot see it until grades are released.'
            }`,
          });
          onClose();
        },
      },
    );
  }

  return (
    <FormModal
      opened
      onClose={onClose}
      title={`Override grade: ${row.name}, ${column.title}`}
      centered
    >
      <FormStack onSubmit={submit}>
        <NumberInput
          label={`Points (out of ${column.points})`}
          required
          min={0}
          max={column.points}
          allowNegative={false}
          decimalScale={2}
          value={points}
          error={error}
          onChange={(v) => setPoints(typeof v === 'number' ? v : '')}
          data-autofocus
        />
        <FormActions submitLabel="Save override" mutation={override} onCancel={onClose} />
      </FormStack>
    </FormModal>
  );
}

function OwnGrades({ course }: { course: CourseDetail }) {
  const book = useGradebook(course.id, { search: '', page: 1, pageSize: PAGE_SIZE });
  const data = book.data;
  const row = data?.items[0] ?? null;
  return (
    <Stack gap="md">
      <Title order={2}>Your grades</Title>
      <QueryState query={book} label="Loading your grades" errorTitle="Couldn't load your grades" />
      {data && data.assignments.length === 0 && <Text>No assignments yet.</Text>}
      {data && data.assignments.length > 0 && (
        <Table.ScrollContainer minWidth={360}>
          <Table aria-label="Your grades" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Assignment</Table.Th>
                <Table.Th scope="col">Points</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.assignments.map((a) => {
                const cell = row?.grades[a.id] ?? null;
                return (
                  <Table.Tr key={a.id}>
                    <Table.Td>{a.title}</Table.Td>
                    <Table.Td>
                      {cell ? `${cell.points} / ${a.points}` : 'Not graded or not released yet'}
                      {cell && <CellMarks cell={cell} />}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr>
                <Table.Th scope="row">Total</Table.Th>
                <Table.Td>
                  {row?.totalPoints == null
                    ? '—'
                    : `${row.totalPoints} (${percentText(row.percent)})`}
                </Table.Td>
              </Table.Tr>
            </Table.Tfoot>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
