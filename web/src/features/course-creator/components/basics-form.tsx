/**
 * The first step of the course creator: code, title, summary, department, cover, enrolment,
 * dates and capacity. Used both to create a draft and to edit one (autosaved by the page).
 */
import {
  CourseCreateSchema,
  type CourseCreate,
  type CourseDetail,
  type EnrolmentMode,
} from '@learning-hub/core';
import {
  Alert,
  Button,
  FileButton,
  Group,
  Image,
  NumberInput,
  Progress,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import dayjs from 'dayjs';
import { useState } from 'react';
import { DateField } from '../../../components/date-field';
import { RichTextEditor } from '../../../components/rich-text/rich-text-editor';
import { uploadFile } from '../../../lib/upload';
import { useDepartmentChoices } from '../../departments/api/departments-api';
import { fieldErrors } from '../../../lib/form-errors';

export interface BasicsValues {
  code: string;
  title: string;
  summaryHtml: string;
  departmentId: string | null;
  enrolmentMode: EnrolmentMode;
  enrolmentKey: string;
  /** YYYY-MM-DD (DateInput's value), or null. */
  startsOn: string | null;
  endsOn: string | null;
  capacity: number | null;
  coverFileId: string | null;
}

export type BasicsErrors = Partial<Record<keyof BasicsValues, string>>;

export const EMPTY_BASICS: BasicsValues = {
  code: '',
  title: '',
  summaryHtml: '',
  departmentId: null,
  enrolmentMode: 'open',
  enrolmentKey: '',
  startsOn: null,
  endsOn: null,
  capacity: null,
  coverFileId: null,
};

export function basicsFromCourse(course: CourseDetail): BasicsValues {
  return {
    code: course.code,
    title: course.title,
    summaryHtml: course.summaryHtml,
    departmentId: course.departmentId,
    enrolmentMode: course.enrolmentMode,
    enrolmentKey: course.enrolmentKey ?? '',
    startsOn: course.startsAt ? dayjs(course.startsAt).format('YYYY-MM-DD') : null,
    endsOn: course.endsAt ? dayjs(course.endsAt).format('YYYY-MM-DD') : null,
    capacity: course.capacity,
    coverFileId: course.coverFileId,
  };
}

/** The request body: dates as the start of the first day and the end of the last (local time). */
export function basicsToPayload(values: BasicsValues): CourseCreate {
  return {
    code: values.code.trim(),
    title: values.title.trim(),
    summaryHtml: values.summaryHtml,
    departmentId: values.departmentId,
    enrolmentMode: values.enrolmentMode,
    enrolmentKey: values.enrolmentMode === 'key' ? values.enrolmentKey.trim() || null : null,
    startsAt: values.startsOn ? dayjs(values.startsOn).startOf('day').toISOString() : null,
    endsAt: values.endsOn ? dayjs(values.endsOn).endOf('day').toISOString() : null,
    capacity: values.capacity,
    coverFileId: values.coverFileId,
  };
}

/** Checks with core's schema (its messages), plus the rules between fields. */
export function validateBasics(values: BasicsValues): BasicsErrors {
  const errors: BasicsErrors = {};
  const parsed = CourseCreateSchema.safeParse(basicsToPayload(values));
  if (!parsed.success) {
    for (const [field, message] of Object.entries(fieldErrors(parsed.error))) {
      const key: keyof BasicsValues | null =
        field === 'startsAt'
          ? 'startsOn'
          : field === 'endsAt'
            ? 'endsOn'
            : field in values
              ? (field as keyof BasicsValues)
              : null;
      if (key && !errors[key]) errors[key] = message;
    }
  }
  if (values.enrolmentMode === 'key' && !values.enrolmentKey.trim() && !errors.enrolmentKey) {
    errors.enrolmentKey = 'Enter the enrolment key learners will use';
  }
  if (values.startsOn && values.endsOn && values.endsOn < values.startsOn && !errors.endsOn) {
    errors.endsOn = 'The end date must not be before the start date';
  }
  return errors;
}

export function firstError(errors: BasicsErrors): string | null {
  return Object.values(errors).find((m) => !!m) ?? null;
}

const MODES: { value: EnrolmentMode; label: string }[] = [
  { value: 'open', label: 'Open' },
  { value: 'key', label: 'With a key' },
  { value: 'manual', label: 'Manual' },
];

const MODE_HELP: Record<EnrolmentMode, string> = {
  open: 'Anyone who can see the course enrols themselves.',
  key: 'Learners enrol themselves with the enrolment key.',
  manual: 'Only people who manage participants add learners.',
};

export function BasicsForm({
  values,
  errors,
  onChange,
  coverUrl,
  disabled = false,
}: {
  values: BasicsValues;
  errors: BasicsErrors;
  onChange(patch: Partial<BasicsValues>): void;
  /** The saved cover's URL (shown until a new one is chosen). */
  coverUrl: string | null;
  disabled?: boolean;
}) {
  const departments = useDepartmentChoices();
  const [upload, setUpload] = useState<{ progress: number; error: string | null } | null>(null);
  const [preview, setPreview] = useState<string | null>(null);

  async function chooseCover(file: File | null) {
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      setUpload({ progress: 0, error: 'Choose an image (PNG, JPEG, WebP or GIF).' });
      return;
    }
    setUpload({ progress: 0, error: null });
    try {
      const stored = await uploadFile(file, {
        onProgress: (progress) => setUpload({ progress, error: null }),
      });
      setUpload(null);
      setPreview(URL.createObjectURL(file));
      onChange({ coverFileId: stored.id });
    } catch (error) {
      setUpload({
        progress: 0,
        error: error instanceof Error ? error.message : 'The upload failed',
      });
    }
  }

  const shownCover = values.coverFileId ? (preview ?? coverUrl) : null;

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Course code"
          description="e.g. OTDR-101"
          required
          value={values.code}
          error={errors.code}
          disabled={disabled}
          onChange={(e) => onChange({ code: e.currentTarget.value })}
        />
        <TextInput
          label="Title"
          required
          value={values.title}
          error={errors.title}
          disabled={disabled}
          onChange={(e) => onChange({ title: e.currentTarget.value })}
        />
      </SimpleGrid>
      <RichTextEditor
        label="Summary"
        value={values.summaryHtml}
        error={errors.summaryHtml}
        disabled={disabled}
        onChange={(html) => onChange({ summaryHtml: html })}
      />
      <Select
        label="Department"
        placeholder={departments.isLoading ? 'Loading departments…' : 'No department'}
        data={(departments.data ?? []).map((d) => ({ value: d.id, label: d.name }))}
        value={values.departmentId}
        clearable
        searchable
        disabled={disabled}
        error={
          errors.departmentId ??
          (departments.isError
            ? `Couldn't load the departments: ${departments.error.message}`
            : undefined)
        }
        onChange={(departmentId) => onChange({ departmentId })}
      />
      <Stack gap={4}>
        <Text fw={500} size="sm">
          Cover image
        </Text>
        {shownCover && (
          <Image src={shownCover} alt="Cover preview" maw={320} radius="sm" fit="cover" h={160} />
        )}
        <Group gap="xs">
          <FileButton
            onChange={(file) => void chooseCover(file)}
            accept="image/png,image/jpeg,image/webp,image/gif"
          >
            {(props) => (
              <Button {...props} variant="default" disabled={disabled || upload?.error === null}>
                {values.coverFileId ? 'Replace cover image' : 'Upload cover image'}
              </Button>
            )}
          </FileButton>
          {values.coverFileId && (
            <Button
              variant="subtle"
              color="red.8"
              disabled={disabled}
              onClick={() => {
                setPreview(null);
                onChange({ coverFileId: null });
              }}
            >
              Remove cover image
            </Button>
          )}
        </Group>
        {upload && upload.error === null && (
          <Progress value={Math.round(upload.progress * 100)} aria-label="Cover upload progress" />
        )}
        {upload?.error && (
          <Alert color="red" role="alert">
            {upload.error}
          </Alert>
        )}
      </Stack>
      <Stack gap={4}>
        <Text fw={500} size="sm" id="enrolment-mode-label">
          Enrolment
        </Text>
        <SegmentedControl
          aria-labelledby="enrolment-mode-label"
          data={MODES}
          value={values.enrolmentMode}
          disabled={disabled}
          onChange={(mode) => onChange({ enrolmentMode: mode as EnrolmentMode })}
        />
        <Text size="sm" c="dimmed">
          {MODE_HELP[values.enrolmentMode]}
        </Text>
      </Stack>
      {values.enrolmentMode === 'key' && (
        <TextInput
          label="Enrolment key"
          required
          value={values.enrolmentKey}
          error={errors.enrolmentKey}
          disabled={disabled}
          onChange={(e) => onChange({ enrolmentKey: e.currentTarget.value })}
        />
      )}
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <DateField
          label="Starts on"
          clearLabel="Clear the start date"
          placeholder="No start date"
          clearable
          valueFormat="YYYY-MM-DD"
          value={values.startsOn}
          error={errors.startsOn}
          disabled={disabled}
          onChange={(startsOn) => onChange({ startsOn })}
        />
        <DateField
          label="Ends on"
          clearLabel="Clear the end date"
          placeholder="No end date"
          clearable
          valueFormat="YYYY-MM-DD"
          value={values.endsOn}
          error={errors.endsOn}
          disabled={disabled}
          onChange={(endsOn) => onChange({ endsOn })}
        />
        <NumberInput
          label="Capacity"
          description="Most learners; empty for no limit"
          min={1}
          allowDecimal={false}
          allowNegative={false}
          value={values.capacity ?? ''}
          error={errors.capacity}
          disabled={disabled}
          onChange={(v) => onChange({ capacity: typeof v === 'number' ? v : null })}
        />
      </SimpleGrid>
    </Stack>
  );
}
