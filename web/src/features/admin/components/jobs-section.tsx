import { JOB_STATES, type JobState, type JobSummary } from '@learning-hub/core';
import {
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import { Pager } from '../../../components/pager';
import { formatDateTime } from '../../../lib/format';
import { useJobs, useRetryJob } from '../api/jobs-api';
import { notifyError, notifySuccess } from '../utils/notify';
import { rangeText } from '../utils/range';
import { QueryState } from '../../../components/query-state';

/** Each state in words, and its badge colour. */
const STATES: Record<JobState, { label: string; color: string }> = {
  created: { label: 'Waiting', color: 'blue' },
  retry: { label: 'Waiting to retry', color: 'yellow' },
  active: { label: 'Running', color: 'teal' },
  completed: { label: 'Completed', color: 'gray' },
  failed: { label: 'Failed', color: 'red' },
};

const STATE_OPTIONS = [
  { value: '', label: 'All states' },
  ...JOB_STATES.map((state) => ({ value: state, label: STATES[state].label })),
];

function JobRow({ job }: { job: JobSummary }) {
  const retry = useRetryJob();
  const state = STATES[job.state];
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={500}>
          {job.name}
        </Text>
        <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
          {job.id}
        </Text>
      </Table.Td>
      <Table.Td>
        <Badge color={state.color} variant="light" tt="none">
          {state.label}
        </Badge>
      </Table.Td>
      <Table.Td ta="right">
        {job.attempts} of {job.maxAttempts}
      </Table.Td>
      <Table.Td>
        <Text size="sm">Created {formatDateTime(job.createdAt)}</Text>
        {job.startedAt && <Text size="xs">Started {formatDateTime(job.startedAt)}</Text>}
        {job.completedAt && (
          <Text size="xs">
            {job.state === 'failed' ? 'Failed' : 'Completed'} {formatDateTime(job.completedAt)}
          </Text>
        )}
        {(job.state === 'created' || job.state === 'retry') && job.startAfter > job.createdAt && (
          <Text size="xs">Not before {formatDateTime(job.startAfter)}</Text>
        )}
      </Table.Td>
      <Table.Td>
        {job.lastError ? (
          <Text size="sm" c="red.8" style={{ wordBreak: 'break-word' }}>
            {job.lastError}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        {job.state === 'failed' && (
          <Button
            size="xs"
            variant="light"
            loading={retry.isPending}
            aria-label={`Retry ${job.name} ${job.id}`}
            onClick={() =>
              retry.mutate(job.id, {
                onSuccess: () =>
                  notifySuccess('Job queued again', `${job.name} will run once more.`),
                onError: (error) => notifyError('Could not retry the job', error),
              })
            }
          >
            Retry
          </Button>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * Admin → System → Background jobs: the queue of the job service (waiting, running, completed,
 * failed with the error of the last attempt), newest first, a page at a time; a failed job can
 * be retried.
 */
export function JobsSection() {
  const [state, setState] = useState<JobState | null>(null);
  const [page, setPage] = useState(1);
  const jobs = useJobs({ state, page });
  const data = jobs.data;

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="jobs-heading">
      <Stack gap="sm">
        <Title order={3} id="jobs-heading">
          Background jobs
        </Title>
        <Group justify="space-between" align="flex-end">
          <Select
            label="State"
            data={STATE_OPTIONS}
            value={state ?? ''}
            allowDeselect={false}
            onChange={(value) => {
              setState(value ? (value as JobState) : null);
              setPage(1);
            }}
            w={220}
          />
          {jobs.isFetching && data && <Loader size="xs" aria-label="Updating" />}
        </Group>
        <QueryState query={jobs} label="Loading background jobs" />
        {data && (
          <>
            <Text size="sm" c="dimmed" aria-live="polite">
              {rangeText(data.page, data.pageSize, data.jobs.length, data.total, 'jobs')}
            </Text>
            <Text size="xs" c="dimmed" hiddenFrom="sm">
              Scroll the table sideways to see every column.
            </Text>
            <Table.ScrollContainer
              minWidth={760}
              scrollAreaProps={{ type: 'always', viewportProps: { tabIndex: 0 } }}
            >
              <Table verticalSpacing="sm" aria-labelledby="jobs-heading">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">Job</Table.Th>
                    <Table.Th scope="col">State</Table.Th>
                    <Table.Th scope="col" ta="right">
                      Attempts
                    </Table.Th>
                    <Table.Th scope="col">Times</Table.Th>
                    <Table.Th scope="col">Last error</Table.Th>
                    <Table.Th scope="col">
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.jobs.map((job) => (
                    <JobRow key={job.id} job={job} />
                  ))}
                  {data.jobs.length === 0 && (
                    <Table.Tr>
                      <Table.Td colSpan={6}>
                        <Text c="dimmed" ta="center" py="md">
                          {state ? 'No jobs in this state.' : 'No background jobs yet.'}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  )}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <Pager
              label="Background job pages"
              page={page}
              total={data.total}
              pageSize={data.pageSize}
              onChange={setPage}
            />
          </>
        )}
      </Stack>
    </Paper>
  );
}
