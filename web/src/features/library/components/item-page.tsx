/**
 * /library/:itemId: one item — what it is, who shares it with whom, its preview, description and
 * versions — with what the server says the viewer may do (`can`): download, edit, replace the
 * file, move to the trash, and in the trash restore or delete for good. Opening the page counts a
 * view once.
 */
import type { LibraryItem, LibraryVersion } from '@learning-hub/core';
import {
  Alert,
  Anchor,
  Badge,
  Breadcrumbs,
  Button,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconEdit, IconFileUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useViewOnce } from '../../../lib/use-view-once';
import { Link, useNavigate, useParams } from 'react-router';

import { DataList, type DataListColumn } from '../../../components/data-list';
import { RichTextView } from '../../../components/rich-text/rich-text-view';

import { formatBytes, formatDateTime } from '../../../lib/format';
import { downloadToDisk } from '../../../lib/upload';
import {
  downloadPath,
  libraryKeys,
  recordView,
  useLibraryItem,
  useLibraryVersions,
  usePurgeLibraryItem,
  useRestoreLibraryItem,
  useTrashLibraryItem,
} from '../api/library-api';
import { EditDialog } from './edit-dialog';
import { FilePreview } from './file-preview';
import { KIND_LABELS, KindIcon, scopeText } from './library-format';
import { ReplaceFileDialog } from './replace-file-dialog';
import { LifecycleActions } from '../../../components/trash-actions';
import { LIBRARY_PURGE_KEPT } from './trash-actions';
import { QueryState } from '../../../components/query-state';

type Dialog = 'edit' | 'replace' | null;

/**
 * Downloads a version (or the current file) through the counting route; refreshes the counts.
 * With the route signed by the server (`downloadUrl`) the browser follows it itself and streams
 * the file to disk; without it the file comes through fetch with the token, as a blob.
 */
function useDownload(item: LibraryItem) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<number | null>(null);
  const download = async (version: number, fileName: string, signedUrl?: string | null) => {
    if (signedUrl) {
      const link = document.createElement('a');
      link.href = signedUrl;
      link.download = fileName;
      link.rel = 'noopener';
      link.click();
      window.setTimeout(
        () => void queryClient.invalidateQueries({ queryKey: libraryKeys.detail(item.id) }),
        1000,
      );
      return;
    }
    setBusy(version);
    try {
      await downloadToDisk(
        downloadPath(item.id, version === item.version ? undefined : version),
        fileName,
      );
      await queryClient.invalidateQueries({ queryKey: libraryKeys.detail(item.id) });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: 'The download failed',
        message: error instanceof Error ? error.message : 'Something went wrong',
      });
    } finally {
      setBusy(null);
    }
  };
  return { busy, download };
}

export function ItemPage() {
  const { itemId = '' } = useParams();
  const item = useLibraryItem(itemId);
  useViewOnce(itemId, recordView);

  if (item.isPending || item.isError) {
    return (
      <QueryState
        query={item}
        label="Loading the item"
        size="page"
        denied={{ page: 'this library item', to: '/library' }}
        heading="Library item"
        back={{ to: '/library', label: 'Back to the library' }}
      />
    );
  }
  return <ItemView item={item.data} />;
}

function ItemView({ item }: { item: LibraryItem }) {
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<Dialog>(null);
  const trash = useTrashLibraryItem();
  const restore = useRestoreLibraryItem();
  const purge = usePurgeLibraryItem();
  const { busy, download } = useDownload(item);
  const inTrash = item.deletedAt !== null;
  const file = item.file;

  return (
    <Stack gap="lg">
      <Breadcrumbs separatorMargin={6}>
        <Anchor component={Link} to={inTrash ? '/library?trash=true' : '/library'} size="sm">
          {inTrash ? 'Library trash' : 'Library'}
        </Anchor>
        <Text size="sm" aria-current="page" lineClamp={1}>
          {item.title}
        </Text>
      </Breadcrumbs>
      <Stack gap="xs">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <KindIcon kind={item.kind} size={28} />
          <Title order={1} style={{ overflowWrap: 'anywhere' }}>
            {item.title}
          </Title>
        </Group>
        <Group gap="xs">
          <Badge variant="light">{KIND_LABELS[item.kind]}</Badge>
          {file && <Badge variant="outline">{`Version ${item.version}`}</Badge>}
          {item.tags.map((t) => (
            <Badge key={t} variant="light" color="gray" tt="none">
              {t}
            </Badge>
          ))}
        </Group>
      </Stack>

      {inTrash && (
        <Alert color="yellow" title="In the trash">
          {`Moved to the trash ${formatDateTime(item.deletedAt)}${item.deletedBy ? ` by ${item.deletedBy.name}` : ''}. Only people who may restore it see it.`}
        </Alert>
      )}

      <Group gap="xs" wrap="wrap">
        {file && !inTrash && (
          <Button
            leftSection={<IconDownload size={16} aria-hidden />}
            loading={busy === item.version}
            onClick={() => void download(item.version, file.name, item.downloadUrl)}
          >
            Download
          </Button>
        )}
        {item.can.edit && !inTrash && (
          <Button
            variant="default"
            leftSection={<IconEdit size={16} aria-hidden />}
            onClick={() => setDialog('edit')}
          >
            Edit
          </Button>
        )}
        {item.can.edit && !inTrash && file && (
          <Button
            variant="default"
            leftSection={<IconFileUpload size={16} aria-hidden />}
            onClick={() => setDialog('replace')}
          >
            Replace file
          </Button>
        )}
        <LifecycleActions
          thing={item}
          inTrash={inTrash}
          can={{ trash: item.can.delete, restore: item.can.restore, purge: item.can.purge }}
          trash={trash}
          restore={restore}
          purge={purge}
          trashQuestion={`Move “${item.title}” to the trash? Nobody sees it in the library any more; it can be restored from the trash.`}
          kept={LIBRARY_PURGE_KEPT}
          onPurged={() => void navigate('/library?trash=true')}
        />
      </Group>

      <Paper withBorder p="md" component="section" aria-labelledby="item-details">
        <Title order={2} size="h4" id="item-details" mb="xs">
          Details
        </Title>
        <Table variant="vertical" layout="fixed" withRowBorders={false}>
          <Table.Tbody>
            <DetailRow label="Shared with">{scopeText(item)}</DetailRow>
            <DetailRow label="Category">{item.category?.name ?? 'None'}</DetailRow>
            <DetailRow label="Added">
              {`${formatDateTime(item.createdAt)} by ${item.createdBy.name}`}
            </DetailRow>
            <DetailRow label="Updated">{formatDateTime(item.updatedAt)}</DetailRow>
            {file && (
              <DetailRow label="File">{`${file.name} (${formatBytes(file.size)})`}</DetailRow>
            )}
            <DetailRow label="Views">{item.viewCount}</DetailRow>
            {file && <DetailRow label="Downloads">{item.downloadCount}</DetailRow>}
          </Table.Tbody>
        </Table>
      </Paper>

      <TextState item={item} />

      <Stack gap="xs" component="section" aria-labelledby="item-preview">
        <Title order={2} size="h4" id="item-preview">
          {item.kind === 'link' ? 'Link' : 'Preview'}
        </Title>
        <FilePreview item={item} />
      </Stack>

      <Stack gap="xs" component="section" aria-labelledby="item-description">
        <Title order={2} size="h4" id="item-description">
          Description
        </Title>
        {item.descriptionHtml ? (
          <RichTextView html={item.descriptionHtml} />
        ) : (
          <Text size="sm" c="dimmed">
            No description.
          </Text>
        )}
      </Stack>

      {file && <Versions item={item} busy={busy} onDownload={download} />}

      {item.can.edit && (
        <>
          <EditDialog item={item} opened={dialog === 'edit'} onClose={() => setDialog(null)} />
          {file && (
            <ReplaceFileDialog
              item={item}
              opened={dialog === 'replace'}
              onClose={() => setDialog(null)}
            />
          )}
        </>
      )}
    </Stack>
  );
}

function DetailRow({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th scope="row" w={120}>
        {label}
      </Table.Th>
      <Table.Td style={{ overflowWrap: 'anywhere' }}>{children}</Table.Td>
    </Table.Tr>
  );
}

function TextState({ item }: { item: LibraryItem }) {
  if (item.textState === 'pending') {
    return (
      <Alert color="blue" role="status" icon={<Loader size="xs" aria-hidden />}>
        Extracting text… The document’s words will be searchable once this is done.
      </Alert>
    );
  }
  if (item.textState === 'failed') {
    return (
      <Alert color="yellow" role="status">
        {`Text not extracted: ${item.textError ?? 'the reason is not known'}. Searches find this item by its title, description and tags only.`}
      </Alert>
    );
  }
  return null;
}

function Versions({
  item,
  busy,
  onDownload,
}: {
  item: LibraryItem;
  busy: number | null;
  onDownload(version: number, fileName: string, signedUrl?: string | null): Promise<void>;
}) {
  const versions = useLibraryVersions(item.id);
  const inTrash = item.deletedAt !== null;
  return (
    <Stack gap="xs" component="section" aria-labelledby="item-versions">
      <Title order={2} size="h4" id="item-versions">
        Versions
      </Title>
      <QueryState query={versions} label="Loading the versions" />
      {versions.data && (
        <DataList
          label="Versions"
          rows={versions.data.items}
          rowKey={(v) => v.id}
          columns={VERSION_COLUMNS}
          minWidth={560}
          actionsHeader="Download"
          actions={
            inTrash
              ? undefined
              : (v) => (
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    leftSection={<IconDownload size={14} aria-hidden />}
                    loading={busy === v.version}
                    aria-label={`Download version ${v.version}`}
                    onClick={() => void onDownload(v.version, v.file.name, v.downloadUrl)}
                  >
                    Download
                  </Button>
                )
          }
        />
      )}
    </Stack>
  );
}

const VERSION_COLUMNS: DataListColumn<LibraryVersion>[] = [
  {
    header: 'Version',
    card: 'title',
    cell: (v) => (
      <Group gap={6} wrap="nowrap">
        {v.version}
        {v.current && (
          <Badge size="sm" variant="light" color="green">
            Current
          </Badge>
        )}
      </Group>
    ),
    cardCell: (v) => (
      <Group gap={6} wrap="nowrap">
        {`Version ${v.version}`}
        {v.current && (
          <Badge size="sm" variant="light" color="green">
            Current
          </Badge>
        )}
      </Group>
    ),
  },
  { header: 'File', cell: (v) => v.file.name, wrapAnywhere: true },
  { header: 'Size', cell: (v) => formatBytes(v.file.size) },
  { header: 'Added', cell: (v) => `${formatDateTime(v.createdAt)} by ${v.createdBy.name}` },
];
