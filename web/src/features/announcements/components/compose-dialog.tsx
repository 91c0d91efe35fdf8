/**
 * Composing or editing an announcement (docs/announcements.md): the title and the text in the one
 * rich-text editor, who it is for, how urgent it is, when it goes out (now, at a time, or kept as
 * a draft), an optional expiry, pinned, and "ask each reader to confirm they have read it". Once
 * it is out only its title, text, expiry and pinning change (the server refuses the rest). A
 * change names the revision it was based on; a stale one offers Reload.
 */
import {
  AnnouncementCreateSchema,
  type Announcement,
  type AnnouncementCreate,
  type AnnouncementPriority,
  type AnnouncementUpdate,
} from '@learning-hub/core';
import {
  Checkbox,
  Radio,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import '@mantine/dates/styles.css';
import dayjs from 'dayjs';
import { useState } from 'react';
import { CALENDAR_LABELS } from '../../../components/date-field';
import { FormActions, FormModal, FormStack } from '../../../components/form-modal';
import { RichTextEditor } from '../../../components/rich-text/rich-text-editor';
import { isStaleEdit } from '../../../lib/api-client';
import { contractErrors, fieldErrors, type FieldErrors } from '../../../lib/form-errors';
import { useCreateAnnouncement, useUpdateAnnouncement } from '../api/announcements-api';
import { PRIORITY_LABELS } from '../announcement-format';
import { AudienceFields, type AudienceValue } from './audience-fields';

/** An audience the page decides (a course's or a department's page): shown, not chosen. */
export interface FixedAudience {
  label: string;
  courseIds?: string[];
  departmentIds?: string[];
}

type When = 'now' | 'at' | 'draft';

interface Values {
  title: string;
  bodyHtml: string;
  audience: AudienceValue;
  priority: AnnouncementPriority;
  pinned: boolean;
  requiresAck: boolean;
  when: When;
  /** `YYYY-MM-DD HH:mm:ss` in local time (the picker's value), or null. */
  publishAt: string | null;
  expiresAt: string | null;
}

const toPicker = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm:ss') : null);
const toIso = (value: string | null) => (value ? dayjs(value).toISOString() : null);

function initialValues(editing: Announcement | undefined): Values {
  if (!editing) {
    return {
      title: '',
      bodyHtml: '',
      audience: { everyone: false, roles: [], departmentIds: [], courses: [], people: [] },
      priority: 'info',
      pinned: false,
      requiresAck: false,
      when: 'now',
      publishAt: null,
      expiresAt: null,
    };
  }
  const a = editing.audience;
  return {
    title: editing.title,
    bodyHtml: editing.bodyHtml,
    audience: {
      everyone: a.everyone,
      roles: a.roles,
      departmentIds: a.departments.map((d) => d.id),
      courses: a.courses,
      people: a.people.map((p) => ({ ...p, username: '' })),
    },
    priority: editing.priority,
    pinned: editing.pinned,
    requiresAck: editing.requiresAck,
    when: editing.state === 'scheduled' ? 'at' : 'draft',
    publishAt: toPicker(editing.publishAt),
    expiresAt: toPicker(editing.expiresAt),
  };
}

function audienceOf(values: Values, fixed: FixedAudience | undefined) {
  if (fixed) {
    return {
      everyone: false,
      roles: [],
      departmentIds: fixed.departmentIds ?? [],
      courseIds: fixed.courseIds ?? [],
      userIds: [],
    };
  }
  const a = values.audience;
  return {
    everyone: a.everyone,
    roles: a.everyone ? [] : a.roles,
    departmentIds: a.everyone ? [] : a.departmentIds,
    courseIds: a.everyone ? [] : a.courses.map((c) => c.id),
    userIds: a.everyone ? [] : a.people.map((p) => p.id),
  };
}

const SUBMIT_LABELS: Readonly<Record<When, string>> = {
  now: 'Publish now',
  at: 'Schedule',
  draft: 'Save draft',
};

export interface ComposeDialogProps {
  opened: boolean;
  onClose(): void;
  /** The announcement to change (none: a new one). */
  editing?: Announcement;
  /** The audience the page decides; none: the administrator chooses it. */
  fixed?: FixedAudience;
  /** Told of what was saved (a new one's id, to open it). */
  onSaved?(announcement: Announcement): void;
}

export function ComposeDialog({ opened, onClose, editing, fixed, onSaved }: ComposeDialogProps) {
  const title = editing ? 'Edit announcement' : 'New announcement';
  return (
    <FormModal opened={opened} onClose={onClose} title={title} size="xl">
      <ComposeForm editing={editing} fixed={fixed} onClose={onClose} onSaved={onSaved} />
    </FormModal>
  );
}

function ComposeForm({
  editing,
  fixed,
  onClose,
  onSaved,
}: {
  editing: Announcement | undefined;
  fixed: FixedAudience | undefined;
  onClose(): void;
  onSaved: ((announcement: Announcement) => void) | undefined;
}) {
  const [values, setValues] = useState<Values>(() => initialValues(editing));
  const [errors, setErrors] = useState<FieldErrors>({});
  const create = useCreateAnnouncement();
  const update = useUpdateAnnouncement(editing?.id ?? '');
  const mutation = editing ? update : create;
  const set = (patch: Partial<Values>) => setValues((current) => ({ ...current, ...patch }));
  // Once out, only the title, the text, the expiry and pinning change.
  const out = editing?.state === 'live' || editing?.state === 'expired';

  function payload(): AnnouncementCreate {
    return {
      title: values.title,
      bodyHtml: values.bodyHtml,
      audience: audienceOf(values, fixed),
      priority: values.priority,
      pinned: values.pinned,
      requiresAck: values.requiresAck,
      publish: values.when,
      publishAt: values.when === 'at' ? toIso(values.publishAt) : null,
      expiresAt: toIso(values.expiresAt),
    };
  }

  function submit() {
    const body = payload();
    const found = contractErrors(
      AnnouncementCreateSchema,
      out ? { ...body, publish: 'now' } : body,
    );
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const done = { onSuccess: (saved: Announcement) => (onSaved?.(saved), onClose()) };
    const onError = (error: unknown) => {
      if (!isStaleEdit(error)) setErrors(fieldErrors(error));
    };
    if (!editing) {
      create.mutate(body, { ...done, onError });
      return;
    }
    const change: AnnouncementUpdate = out
      ? {
          revision: editing.revision,
          title: body.title,
          bodyHtml: body.bodyHtml,
          pinned: body.pinned,
          expiresAt: body.expiresAt ?? null,
        }
      : {
          revision: editing.revision,
          title: body.title,
          bodyHtml: body.bodyHtml,
          audience: body.audience,
          priority: body.priority,
          pinned: body.pinned,
          requiresAck: body.requiresAck,
          publish: body.publish,
          ...(body.publish === 'at' ? { publishAt: body.publishAt ?? null } : {}),
          expiresAt: body.expiresAt ?? null,
        };
    update.mutate(change, { ...done, onError });
  }

  const audienceError = errors.audience;
  return (
    <FormStack onSubmit={submit}>
      <TextInput
        label="Title"
        required
        value={values.title}
        error={errors.title}
        maxLength={200}
        onChange={(event) => set({ title: event.currentTarget.value })}
        data-autofocus
      />
      <RichTextEditor
        label="Text"
        value={values.bodyHtml}
        error={errors.bodyHtml}
        minHeight="8rem"
        onChange={(bodyHtml) => set({ bodyHtml })}
      />
      {fixed ? (
        <Text size="sm">
          <Text span fw={500}>
            For:{' '}
          </Text>
          {fixed.label}
        </Text>
      ) : out ? (
        <Text size="sm" c="dimmed">
          It is out: who it is for and how it was sent no longer change. Withdraw it and write a new
          one to change them.
        </Text>
      ) : (
        <AudienceFields
          value={values.audience}
          onChange={(audience) => set({ audience })}
          error={audienceError}
        />
      )}
      {!out && (
        <>
          <Stack gap={4}>
            <Text size="sm" fw={500} id="priority-label">
              Priority
            </Text>
            <SegmentedControl
              aria-labelledby="priority-label"
              value={values.priority}
              onChange={(priority) => set({ priority: priority as AnnouncementPriority })}
              data={(['info', 'important', 'urgent'] as const).map((p) => ({
                value: p,
                label: PRIORITY_LABELS[p],
              }))}
            />
          </Stack>
          <Checkbox
            label="Ask each reader to confirm they have read it"
            description="They see “I have read this”; an urgent one stays as a banner until they do."
            checked={values.requiresAck}
            onChange={(event) => set({ requiresAck: event.currentTarget.checked })}
          />
        </>
      )}
      <Checkbox
        label="Pinned"
        description="Shown above the others while it is out."
        checked={values.pinned}
        onChange={(event) => set({ pinned: event.currentTarget.checked })}
      />
      {!out && (
        <Radio.Group
          label="When it goes out"
          value={values.when}
          onChange={(when) => set({ when: when as When })}
        >
          <Stack gap="xs" mt={4}>
            <Radio value="now" label="Now" />
            <Radio value="at" label="At a time" />
            <Radio value="draft" label="Not yet: keep it as a draft" />
          </Stack>
        </Radio.Group>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {!out && values.when === 'at' && (
          <TimeField
            label="Goes out at"
            name="publish"
            value={values.publishAt}
            error={errors.publishAt}
            onChange={(publishAt) => set({ publishAt })}
          />
        )}
        <TimeField
          label="Expires at"
          name="expiry"
          placeholder="Never"
          value={values.expiresAt}
          error={errors.expiresAt}
          onChange={(expiresAt) => set({ expiresAt })}
        />
      </SimpleGrid>
      <FormActions
        submitLabel={
          editing && (out || values.when === 'draft') ? 'Save' : SUBMIT_LABELS[values.when]
        }
        mutation={mutation}
        error={Object.keys(fieldErrors(mutation.error)).length > 0 ? null : mutation.error}
        onCancel={onClose}
      />
    </FormStack>
  );
}

function TimeField({
  label,
  name,
  value,
  error,
  placeholder,
  onChange,
}: {
  label: string;
  name: string;
  value: string | null;
  error: string | undefined;
  placeholder?: string;
  onChange(value: string | null): void;
}) {
  return (
    <DateTimePicker
      label={label}
      placeholder={placeholder ?? 'Choose a time'}
      styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
      clearable
      valueFormat="YYYY-MM-DD HH:mm"
      hideOutsideDates
      minDate={dayjs().format('YYYY-MM-DD')}
      ariaLabels={CALENDAR_LABELS}
      submitButtonProps={{ 'aria-label': 'Done' }}
      clearButtonProps={{ 'aria-label': `Clear ${label.toLowerCase()}` }}
      popoverProps={{ attributes: { dropdown: { 'aria-label': `Choose the ${name} time` } } }}
      weekendDays={[]}
      value={value}
      error={error}
      onChange={onChange}
    />
  );
}
