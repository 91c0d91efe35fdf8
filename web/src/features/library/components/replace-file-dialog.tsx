/**
 * "Replace file": uploads a new file (resumable, with progress) and makes it the item's new
 * version, at the item's revision. When someone else changed the item meanwhile the server keeps
 * nothing of it (the upload included): the item is reloaded and Try again uploads once more.
 */
import type { LibraryItem } from '@learning-hub/core';
import { Button, Group, Progress, Stack, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import '@mantine/dropzone/styles.css';
import { notifications } from '@mantine/notifications';
import { IconUpload } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { FailedSave, FormModal } from '../../../components/form-modal';
import { formatBytes } from '../../../lib/format';
import { discardUpload } from '../../../lib/upload';
import { isStaleEdit } from '../../../lib/api-client';
import { useReloadLibraryItem, useUpdateLibraryItem } from '../api/library-api';
import { isAbortError, libraryUploader } from '../api/uploader';

type Phase = 'choose' | 'uploading' | 'saving' | 'failed';

export function ReplaceFileDialog({
  item,
  opened,
  onClose,
}: {
  item: LibraryItem;
  opened: boolean;
  onClose(): void;
}) {
  return (
    <FormModal opened={opened} onClose={onClose} title="Replace file">
      <ReplaceForm item={item} onClose={onClose} />
    </FormModal>
  );
}

function ReplaceForm({ item, onClose }: { item: LibraryItem; onClose(): void }) {
  const update = useUpdateLibraryItem(item.id);
  const reload = useReloadLibraryItem(item.id);
  const [file, setFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<Phase>('choose');
  const [progress, setProgress] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [fileId, setFileId] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  async function start() {
    if (!file) return;
    setError(null);
    let id = fileId;
    if (!id) {
      const abort = new AbortController();
      controller.current = abort;
      setPhase('uploading');
      setProgress(0);
      try {
        id = await libraryUploader.upload(file, { signal: abort.signal, onProgress: setProgress });
        setFileId(id);
      } catch (e) {
        if (isAbortError(e)) {
          setPhase('choose');
          return;
        }
        setPhase('failed');
        setError(e instanceof Error ? e.message : 'The upload failed');
        return;
      }
    }
    setPhase('saving');
    update.mutate(
      { fileId: id, revision: item.revision },
      {
        onSuccess: (saved) => {
          onClose();
          notifications.show({
            color: 'green',
            message: `Version ${saved.version} of “${saved.title}” is now the current one.`,
          });
        },
        onError: (e) => {
          setPhase('failed');
          setError(e.message);
          if (isStaleEdit(e)) {
            // The refused upload is gone with the change: the next try sends the file again,
            // at the revision reloaded now.
            setFileId(null);
            void reload().catch(() => undefined);
          }
        },
      },
    );
  }

  const going = phase === 'uploading' || phase === 'saving';
  return (
    <Stack gap="md">
      <Text size="sm">
        The new file becomes the current version; the earlier versions are kept and can still be
        downloaded.
      </Text>
      <Dropzone
        onDrop={(files) => {
          const picked = files[0];
          if (!picked) return;
          if (fileId) discardUpload(fileId);
          setFile(picked);
          setFileId(null);
          setError(null);
          setPhase('choose');
        }}
        multiple={false}
        disabled={going}
        aria-label="New file"
      >
        <Group justify="center" gap="sm" mih={70} style={{ pointerEvents: 'none' }}>
          <IconUpload size={24} aria-hidden />
          <Text size="sm">
            {file
              ? `${file.name} (${formatBytes(file.size)})`
              : 'Drop the new file here or click to choose it.'}
          </Text>
        </Group>
      </Dropzone>
      {going && (
        <Progress
          value={Math.round((phase === 'saving' ? 1 : progress) * 100)}
          aria-label={`Uploading ${file?.name ?? 'the file'}`}
        />
      )}
      <FailedSave error={error} />
      <Group justify="flex-end">
        <Button
          variant="default"
          onClick={() => (phase === 'uploading' ? controller.current?.abort() : onClose())}
        >
          {phase === 'uploading' ? 'Cancel upload' : 'Cancel'}
        </Button>
        <Button onClick={() => void start()} disabled={!file || going} loading={going}>
          {phase === 'failed' ? 'Try again' : 'Upload new version'}
        </Button>
      </Group>
    </Stack>
  );
}
