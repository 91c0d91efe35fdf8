/**
 * Editing an item: title, description (rich text), a link's address, scope, category and tags.
 * The save sends the revision the form was filled from; when someone else changed the item
 * meanwhile, the form says so and keeps what was typed until Reload fills it with their version
 * (docs/architecture.md, "Two people editing at once").
 */
import { LibraryItemUpdateSchema, type LibraryItem } from '@learning-hub/core';
import { TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { RichTextEditor } from '../../../components/rich-text/rich-text-editor';
import { useReloadLibraryItem, useUpdateLibraryItem } from '../api/library-api';
import {
  fieldsOf,
  ItemFields,
  scopeOf,
  tagsError,
  type ItemFormErrors,
  type ItemFieldValues,
} from './item-fields';
import { contractErrors } from '../../../lib/form-errors';
import { FormActions, FormModal, FormStack } from '../../../components/form-modal';
import { useReloadable } from '../../../components/stale-edit';

export function EditDialog({
  item,
  opened,
  onClose,
}: {
  item: LibraryItem;
  opened: boolean;
  onClose(): void;
}) {
  return (
    <FormModal opened={opened} onClose={onClose} title="Edit item" size="lg">
      <Editing item={item} onClose={onClose} />
    </FormModal>
  );
}

/** The form, filled again from the server's item when a stale save is reloaded. */
function Editing({ item, onClose }: { item: LibraryItem; onClose(): void }) {
  const reload = useReloadLibraryItem(item.id);
  const loaded = useReloadable(item, reload);
  return (
    <EditForm key={loaded.key} item={loaded.value} onClose={onClose} onReload={loaded.onReload} />
  );
}

/** Starts from the item as it is when the dialog opens (or was reloaded), at its revision. */
function EditForm({
  item,
  onClose,
  onReload,
}: {
  item: LibraryItem;
  onClose(): void;
  onReload(): Promise<void>;
}) {
  const update = useUpdateLibraryItem(item.id);
  const [title, setTitle] = useState(item.title);
  const [url, setUrl] = useState(item.url ?? '');
  const [descriptionHtml, setDescriptionHtml] = useState(item.descriptionHtml);
  const [fields, setFields] = useState<ItemFieldValues>(() => fieldsOf(item));
  const [errors, setErrors] = useState<ItemFormErrors>({});

  function submit() {
    const scope = scopeOf(fields);
    const body = {
      title,
      descriptionHtml,
      tags: fields.tags,
      categoryId: fields.categoryId,
      ...(typeof scope === 'string' ? {} : { scope }),
      ...(item.kind === 'link' ? { url: url.trim() } : {}),
      revision: item.revision,
    };
    const found = contractErrors(LibraryItemUpdateSchema, body);
    const next: ItemFormErrors = {
      title: found.title,
      url: found.url,
      scope: typeof scope === 'string' ? scope : undefined,
      tags: tagsError(fields.tags) ?? found.tags,
    };
    setErrors(next);
    if (Object.values(next).some(Boolean)) return;
    update.mutate(body, {
      onSuccess: () => {
        onClose();
        notifications.show({ color: 'green', message: 'The changes were saved.' });
      },
    });
  }

  return (
    <FormStack onSubmit={submit}>
      <TextInput
        label="Title"
        required
        value={title}
        onChange={(event) => setTitle(event.currentTarget.value)}
        error={errors.title}
      />
      {item.kind === 'link' && (
        <TextInput
          label="Web address"
          required
          type="url"
          value={url}
          onChange={(event) => setUrl(event.currentTarget.value)}
          error={errors.url}
        />
      )}
      <ItemFields
        values={fields}
        onChange={setFields}
        errors={errors}
        currentScopeLabel={item.scopeLabel}
      />
      <RichTextEditor
        label="Description"
        value={descriptionHtml}
        onChange={setDescriptionHtml}
        minHeight="8rem"
      />
      <FormActions submitLabel="Save" mutation={update} onReload={onReload} onCancel={onClose} />
    </FormStack>
  );
}
