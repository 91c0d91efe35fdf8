import { JOB_STATES, type JobState, type JobSubject, type JobSummary } from '@learning-hub/core';
import {
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  Select,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { DataList, type DataListColumn } from '../../../components/data-list';
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

/** What a job worked on, in words. */
const SUBJECT_TYPES: Record<JobSubject['type'], string> = {
  'library-item': 'Library item',
  'wiki-page': 'Wiki page',
  file: 'File',
};

/** "Library item: <title, linked> (file.pdf)". */
function JobSubjectLine({ subject }: { subject: JobSubject }) {
  return (
    <Text size="sm" style={{ wordBreak: 'break-word' }}>
      {SUBJECT_TYPES[subject.type]}:{' '}
      {subject.path ? (
        <Anchor component={Link} to={subject.path} size="sm">
          {subject.title}
        </Anchor>
      ) : (
        subject.title
      )}
      {subject.fileName && ` (${subject.fileName})`}
    </Text>
  );
}

function RetryButton({ job }: { job: JobSummary }) {
  const retry = useRetryJob();
  if (job.state !== 'failed') return null;
  return (
    <Button
      size="xs"
      variant="light"
      loading={retry.isPending}
      aria-label={`Retry ${job.name} ${job.id}`}
      onClick={() =>
        retry.mutate(job.id, {
          onSuccess: () => notifySuccess('Job queued again', `${job.name} will run once more.`),
          onError: (error) => notifyError('Could not retry the job', error),
        })
      }
    >
      Retry
    </Button>
  );
}

const JOB_COLUMNS: DataListColumn<JobSummary>[] = [
  {
    header: 'Job',
    card: 'title',
    cell: (job) => (
      <>
        {job.subject && <JobSubjectLine subject={job.subject} />}
        <Text size="sm" fw={500}>
          {job.name}
        </Text>
        <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
          {job.id}
        </Text>
      </>
    ),
  },
  {
    header: 'State',
    card: 'aside',
    cell: (job) => (
      <Badge color={STATES[job.state].color} variant="light" tt="none">
        {STATES[job.state].label}
      </Badge>
    ),
  },
  {
    header: 'Attempts',
    align: 'right',
    cell: (job) => `${job.attempts} of ${job.maxAttempts}`,
  },
  {
    header: 'Times',
    cell: (job) => (
      <>
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
      </>
    ),
  },
  {
    header: 'Last error',
    cell: (job) =>
      job.lastError ? (
        <Text size="sm" c="red.8" style={{ wordBreak: 'break-word' }}>
          {job.lastError}
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          —
        </Text>
      ),
  },
];

/**
 * Admin → System → Background jobs: the queue of the job service (waiting, running, completed,
 * failed with the error of the last attempt), newest first, a page at a time, each with what it
 * worked on (linked where the app opens it); a failed job can be retried.
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
              {rangeText(data.page, data.pageSize, data.items.length, data.total, 'jobs')}
            </Text>
            <DataList
              labelledBy="jobs-heading"
              rows={data.items}
              rowKey={(job) => job.id}
              columns={JOB_COLUMNS}
              minWidth={760}
              actions={(job) => <RetryButton job={job} />}
              empty={
                <Text c="dimmed" ta="center" py="md">
                  {state ? 'No jobs in this state.' : 'No background jobs yet.'}
                </Text>
              }
            />
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
