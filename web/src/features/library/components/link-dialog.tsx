/** "Add link": a web address as a library item (title, address, scope, category, tags, description). */
import { LibraryItemCreateSchema } from '@learning-hub/core';
import { TextInput } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { RichTextEditor } from '../../../components/rich-text/rich-text-editor';
import { useCreateLibraryItem } from '../api/library-api';
import {
  EMPTY_FIELDS,
  ItemFields,
  scopeOf,
  tagsError,
  type ItemFormErrors,
  type ItemFieldValues,
} from './item-fields';
import { contractErrors } from '../../../lib/form-errors';
import { href } from '../../../lib/links';
import { FormActions, FormModal, FormStack } from '../../../components/form-modal';

export function LinkDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  return (
    <FormModal opened={opened} onClose={onClose} title="Add link" size="lg">
      <LinkForm onClose={onClose} />
    </FormModal>
  );
}

function LinkForm({ onClose }: { onClose(): void }) {
  const navigate = useNavigate();
  const create = useCreateLibraryItem();
  const [title, setTitle] = useState('');
  const [url, setUrl] = useState('');
  const [descriptionHtml, setDescriptionHtml] = useState('');
  const [fields, setFields] = useState<ItemFieldValues>(EMPTY_FIELDS);
  const [errors, setErrors] = useState<ItemFormErrors>({});

  function submit() {
    const scope = scopeOf(fields);
    const body = {
      title,
      url: url.trim(),
      descriptionHtml,
      tags: fields.tags,
      categoryId: fields.categoryId,
      scope: typeof scope === 'string' ? { type: 'everyone' as const } : scope,
    };
    const found = contractErrors(LibraryItemCreateSchema, body);
    const next: ItemFormErrors = {
      title: found.title,
      url: url.trim() === '' ? 'Enter the web address' : found.url,
      scope: typeof scope === 'string' ? scope : undefined,
      tags: tagsError(fields.tags) ?? found.tags,
    };
    setErrors(next);
    if (Object.values(next).some(Boolean)) return;
    create.mutate(body, {
      onSuccess: (item) => {
        onClose();
        void navigate(href('libraryItem', { itemId: item.id }));
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
      <TextInput
        label="Web address"
        required
        type="url"
        placeholder="https://"
        value={url}
        onChange={(event) => setUrl(event.currentTarget.value)}
        error={errors.url}
      />
      <ItemFields values={fields} onChange={setFields} errors={errors} />
      <RichTextEditor
        label="Description"
        value={descriptionHtml}
        onChange={setDescriptionHtml}
        minHeight="6rem"
      />
      <FormActions submitLabel="Add link" mutation={create} onCancel={onClose} />
    </FormStack>
  );
}
