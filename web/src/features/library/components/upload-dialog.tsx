/**
 * "Upload files": many files at once, each its own row (title, progress, status, error, cancel
 * and retry), with the scope, category and tags shared by the batch. Each file goes up resumably
 * (api/uploader.ts); once it is stored, its item is created with the batch's fields, and the
 * list refreshes. What the server refuses (an empty file, a type it does not take, too large,
 * over the quota) shows under the file with the server's words.
 */
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Progress,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import '@mantine/dropzone/styles.css';
import { IconRefresh, IconUpload, IconX } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { FormModal } from '../../../components/form-modal';
import { formatBytes } from '../../../lib/format';
import { discardUpload } from '../../../lib/upload';
import { createLibraryItem, invalidateLists } from '../api/library-api';
import { isAbortError, libraryUploader } from '../api/uploader';
import {
  EMPTY_FIELDS,
  ItemFields,
  scopeOf,
  tagsError,
  type ItemFieldErrors,
  type ItemFieldValues,
} from './item-fields';
import { titleFromFileName } from './library-format';

type RowStatus = 'ready' | 'queued' | 'uploading' | 'creating' | 'done' | 'failed' | 'cancelled';

/** Files sent at the same time; the rest of a batch waits its turn. */
const PARALLEL_UPLOADS = 3;

interface Row {
  key: string;
  file: File;
  title: string;
  status: RowStatus;
  progress: number;
  error: string | null;
  /** The stored file once uploaded (kept for a retry of the item's creation). */
  fileId: string | null;
  controller: AbortController | null;
}

const STATUS_LABELS: Record<RowStatus, string> = {
  ready: 'Ready',
  queued: 'Waiting',
  uploading: 'Uploading',
  creating: 'Adding',
  done: 'Added',
  failed: 'Failed',
  cancelled: 'Cancelled',
};
const STATUS_COLORS: Record<RowStatus, string> = {
  ready: 'gray',
  queued: 'gray',
  uploading: 'blue',
  creating: 'blue',
  done: 'green',
  failed: 'red',
  cancelled: 'gray',
};

let rowCounter = 0;

function messageOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'The upload failed';
}

export function UploadDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  // Closing stops what is still uploading: while something is, closing asks first.
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const close = () => {
    setConfirming(false);
    setBusy(false);
    onClose();
  };
  const requestClose = () => (busy ? setConfirming(true) : close());
  return (
    <FormModal opened={opened} onClose={requestClose} title="Upload files" size="lg">
      {confirming && (
        <Alert color="yellow" title="Stop the uploads?" role="alert" mb="md">
          <Stack gap="sm">
            <Text size="sm">
              Files are still uploading. Closing stops them; files not added yet are not kept.
            </Text>
            <Group gap="xs">
              <Button size="xs" variant="default" onClick={() => setConfirming(false)}>
                Keep uploading
              </Button>
              <Button size="xs" color="red" onClick={close}>
                Stop and close
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}
      <UploadForm onClose={requestClose} onBusyChange={setBusy} />
    </FormModal>
  );
}

/** The dialog's content: mounted while it is open, so each opening starts a new batch. */
function UploadForm({
  onClose,
  onBusyChange,
}: {
  onClose(): void;
  onBusyChange(busy: boolean): void;
}) {
  const queryClient = useQueryClient();
  const [rows, setRows] = useState<Row[]>([]);
  const [fields, setFields] = useState<ItemFieldValues>(EMPTY_FIELDS);
  const [errors, setErrors] = useState<ItemFieldErrors>({});
  const [rejected, setRejected] = useState<string[]>([]);
  // The uploads still going, cancelled when the dialog closes.
  const controllers = useRef(new Set<AbortController>());
  // Rows of the queue cancelled before their turn.
  const skipped = useRef(new Set<string>());

  const update = (key: string, changes: Partial<Row>) =>
    setRows((list) => list.map((r) => (r.key === key ? { ...r, ...changes } : r)));

  // Set when the dialog closes: the rest of the queue is not started.
  const closed = useRef(false);

  useEffect(() => {
    const going = controllers.current;
    closed.current = false;
    return () => {
      closed.current = true;
      for (const controller of going) controller.abort();
    };
  }, []);

  function addFiles(files: File[]) {
    setRejected([]);
    setRows((list) => [
      ...list,
      ...files.map((file): Row => ({
        key: `upload-${(rowCounter += 1)}`,
        file,
        title: titleFromFileName(file.name),
        status: 'ready',
        progress: 0,
        error: null,
        fileId: null,
        controller: null,
      })),
    ]);
  }

  async function create(row: Row, fileId: string, values: ItemFieldValues) {
    update(row.key, { status: 'creating', fileId, progress: 1 });
    const scope = scopeOf(values);
    try {
      await createLibraryItem({
        title: row.title.trim(),
        fileId,
        scope: typeof scope === 'string' ? { type: 'everyone' } : scope,
        tags: values.tags,
        categoryId: values.categoryId,
      });
      update(row.key, { status: 'done', error: null, controller: null });
      await invalidateLists(queryClient);
    } catch (error) {
      update(row.key, { status: 'failed', error: messageOf(error), controller: null });
    }
  }

  /** Uploads the row's file (unless it is stored already) and creates its item with `values`. */
  async function run(row: Row, values: ItemFieldValues) {
    if (row.fileId) {
      await create(row, row.fileId, values);
      return;
    }
    const controller = new AbortController();
    controllers.current.add(controller);
    update(row.key, { status: 'uploading', progress: 0, error: null, controller });
    let fileId: string;
    try {
      fileId = await libraryUploader.upload(row.file, {
        signal: controller.signal,
        onProgress: (fraction) => update(row.key, { progress: fraction }),
      });
    } catch (error) {
      if (isAbortError(error)) update(row.key, { status: 'cancelled', controller: null });
      else update(row.key, { status: 'failed', error: messageOf(error), controller: null });
      return;
    } finally {
      controllers.current.delete(controller);
    }
    await create(row, fileId, values);
  }

  function validate(): boolean {
    const scope = scopeOf(fields);
    const next: ItemFieldErrors = {
      scope: typeof scope === 'string' ? scope : undefined,
      tags: tagsError(fields.tags),
    };
    setErrors(next);
    return !next.scope && !next.tags;
  }

  function start() {
    if (!validate()) return;
    const queue = rows.filter((r) => r.status === 'ready' && r.title.trim() !== '');
    const keys = new Set(queue.map((r) => r.key));
    setRows((list) => list.map((r) => (keys.has(r.key) ? { ...r, status: 'queued' } : r)));
    const values = fields;
    const worker = async () => {
      for (let row = queue.shift(); row; row = queue.shift()) {
        // Cancelled while it waited.
        if (closed.current) return;
        if (skipped.current.delete(row.key)) continue;
        await run(row, values);
      }
    };
    const workers = Math.min(PARALLEL_UPLOADS, queue.length);
    for (let i = 0; i < workers; i += 1) void worker();
  }

  function retry(row: Row) {
    if (!validate() || row.title.trim() === '') return;
    void run(row, fields);
  }

  function remove(row: Row) {
    row.controller?.abort();
    if (row.fileId && row.status !== 'done') discardUpload(row.fileId);
    setRows((list) => list.filter((r) => r.key !== row.key));
  }

  const busy = rows.some(
    (r) => r.status === 'queued' || r.status === 'uploading' || r.status === 'creating',
  );
  useEffect(() => onBusyChange(busy), [busy, onBusyChange]);
  const ready = rows.filter((r) => r.status === 'ready');
  const allDone = rows.length > 0 && rows.every((r) => r.status === 'done');
  const doneCount = rows.filter((r) => r.status === 'done').length;

  return (
    <Stack gap="md">
      <Dropzone
        onDrop={addFiles}
        onReject={(rejections) =>
          setRejected(
            rejections.map(
              ({ file, errors: reasons }) =>
                `${file.name}: ${reasons[0]?.message ?? 'not accepted'}`,
            ),
          )
        }
        multiple
        aria-label="Files to upload"
      >
        <Group justify="center" gap="sm" mih={80} style={{ pointerEvents: 'none' }}>
          <IconUpload size={28} aria-hidden />
          <Text size="sm" ta="center">
            Drop files here or click to choose them: documents, videos, audio or images.
          </Text>
        </Group>
      </Dropzone>
      {rejected.map((message) => (
        <Alert key={message} color="red" role="alert">
          {message}
        </Alert>
      ))}
      {rows.length > 0 && (
        <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Files">
          {rows.map((row) => (
            <UploadRow
              key={row.key}
              row={row}
              onTitle={(title) => update(row.key, { title })}
              onCancel={() => {
                if (row.status === 'queued') {
                  skipped.current.add(row.key);
                  update(row.key, { status: 'cancelled' });
                } else row.controller?.abort();
              }}
              onRetry={() => retry(row)}
              onRemove={() => remove(row)}
            />
          ))}
        </Stack>
      )}
      <ItemFields
        values={fields}
        onChange={(values) => {
          setFields(values);
          setErrors({});
        }}
        errors={errors}
        disabled={busy}
      />
      {allDone && (
        <Alert color="green" role="status">
          {doneCount === 1
            ? 'The file was added to the library.'
            : `${doneCount} files were added to the library.`}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {allDone ? 'Close' : 'Cancel'}
        </Button>
        <Button
          onClick={start}
          disabled={ready.length === 0}
          leftSection={<IconUpload size={16} aria-hidden />}
        >
          {ready.length > 1 ? `Upload ${ready.length} files` : 'Upload'}
        </Button>
      </Group>
    </Stack>
  );
}

function UploadRow({
  row,
  onTitle,
  onCancel,
  onRetry,
  onRemove,
}: {
  row: Row;
  onTitle(title: string): void;
  onCancel(): void;
  onRetry(): void;
  onRemove(): void;
}) {
  const name = row.file.name;
  const editable = row.status === 'ready' || row.status === 'failed' || row.status === 'cancelled';
  const going = row.status === 'queued' || row.status === 'uploading' || row.status === 'creating';
  return (
    <li aria-label={name}>
      <Stack
        gap={6}
        p="xs"
        style={{
          border: '1px solid var(--mantine-color-default-border)',
          borderRadius: 'var(--mantine-radius-default)',
        }}
      >
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text
            size="sm"
            truncate
            style={{ minWidth: 0 }}
          >{`${name} (${formatBytes(row.file.size)})`}</Text>
          <Badge color={STATUS_COLORS[row.status]} variant="light" style={{ flexShrink: 0 }}>
            {STATUS_LABELS[row.status]}
          </Badge>
        </Group>
        <TextInput
          label="Title"
          aria-label={`Title of ${name}`}
          size="sm"
          value={row.title}
          disabled={!editable}
          onChange={(event) => onTitle(event.currentTarget.value)}
          error={row.title.trim() === '' ? 'Enter the title' : undefined}
        />
        {(row.status === 'uploading' || row.status === 'creating') && (
          <Progress
            value={Math.round(row.progress * 100)}
            aria-label={`Uploading ${name}`}
            animated={row.status === 'creating'}
          />
        )}
        {row.error && (
          <Text size="sm" c="red.8" role="alert">
            {row.error}
          </Text>
        )}
        <Group gap="xs" justify="flex-end">
          {going && (
            <Button
              size="compact-sm"
              variant="default"
              onClick={onCancel}
              disabled={row.status === 'creating'}
              aria-label={`Cancel ${name}`}
            >
              Cancel
            </Button>
          )}
          {(row.status === 'failed' || row.status === 'cancelled') && (
            <Button
              size="compact-sm"
              variant="light"
              leftSection={<IconRefresh size={14} aria-hidden />}
              onClick={onRetry}
              aria-label={`Retry ${name}`}
            >
              Retry
            </Button>
          )}
          {!going && row.status !== 'done' && (
            <ActionIcon
              variant="subtle"
              color="red.8"
              aria-label={`Remove ${name}`}
              onClick={onRemove}
            >
              <IconX size={18} aria-hidden />
            </ActionIcon>
          )}
        </Group>
      </Stack>
    </li>
  );
}
