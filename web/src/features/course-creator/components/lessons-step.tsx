/**
 * The lessons step: pick a lesson and edit its title, duration and body. Edits are saved on
 * their own (PATCH the lesson, about 1.5 s after the last change) at the lesson's revision: when
 * someone else changed it meanwhile, the status says so and Reload loads it as it is now
 * (docs/architecture.md, "Two people editing at once").
 */
import { LessonUpdateSchema, type CourseDetail, type Lesson } from '@learning-hub/core';
import { Alert, Loader, NumberInput, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { RichTextEditor } from '../../../components/rich-text/rich-text-editor';
import {
  useLesson,
  useReloadLesson,
  useUpdateLesson,
  type LessonInput,
} from '../../classroom/api/courses-api';
import { SaveStatus } from './save-status';
import { useAutosave } from './use-autosave';
import { fieldErrors, firstError } from '../../../lib/form-errors';

export function LessonsStep({
  course,
  lessonId,
  onLessonChange,
  onDirtyChange,
}: {
  course: CourseDetail;
  lessonId: string | null;
  onLessonChange(lessonId: string | null): void;
  onDirtyChange(dirty: boolean): void;
}) {
  const groups = course.sections
    .filter((s) => s.lessons.length > 0)
    .map((s) => ({
      group: s.title,
      items: s.lessons.map((l) => ({ value: l.id, label: l.title })),
    }));
  const exists = course.sections.some((s) => s.lessons.some((l) => l.id === lessonId));
  const selected = exists ? lessonId : null;
  const lesson = useLesson(course.id, selected);
  const reloadLesson = useReloadLesson(course.id);
  // Each reload opens the editor afresh on the lesson as the server has it now.
  const [reloads, setReloads] = useState(0);

  return (
    <Stack gap="md">
      <Title order={2}>Lessons</Title>
      {groups.length === 0 ? (
        <Text>There are no lessons yet. Add them in the Structure step.</Text>
      ) : (
        <Select
          label="Lesson to edit"
          placeholder="Choose a lesson"
          data={groups}
          value={selected}
          searchable
          onChange={onLessonChange}
        />
      )}
      {selected && lesson.isLoading && <Loader size="sm" aria-label="Loading the lesson" />}
      {lesson.isError && (
        <Alert color="red" role="alert">
          {`Couldn't load the lesson: ${lesson.error.message}`}
        </Alert>
      )}
      {selected && lesson.data && lesson.data.id === selected && (
        <LessonEditor
          key={`${lesson.data.id} ${reloads}`}
          courseId={course.id}
          lesson={lesson.data}
          onDirtyChange={onDirtyChange}
          onReload={async () => {
            await reloadLesson(lesson.data.id);
            setReloads((n) => n + 1);
          }}
        />
      )}
    </Stack>
  );
}

/** The fields the editor checks as they are typed (the revision is the editor's own). */
const LessonFieldsSchema = LessonUpdateSchema.omit({ revision: true });

interface LessonValues {
  title: string;
  durationMinutes: number | null;
  bodyHtml: string;
}

function LessonEditor({
  courseId,
  lesson,
  onDirtyChange,
  onReload,
}: {
  courseId: string;
  lesson: Lesson;
  onDirtyChange(dirty: boolean): void;
  onReload(): Promise<void>;
}) {
  const update = useUpdateLesson(courseId);
  // The revision this editor last saw from the server: each save sends it and takes the next.
  const revision = useRef(lesson.revision);
  const [values, setValues] = useState<LessonValues>({
    title: lesson.title,
    durationMinutes: lesson.durationMinutes,
    bodyHtml: lesson.bodyHtml,
  });
  const [errors, setErrors] = useState<Partial<Record<keyof LessonValues, string>>>({});
  const autosave = useAutosave<LessonInput>(async (changes) => {
    const saved = await update.mutateAsync({
      lessonId: lesson.id,
      ...changes,
      revision: revision.current,
    });
    revision.current = saved.revision;
  });
  const { dirty } = autosave;
  useEffect(() => {
    onDirtyChange(dirty);
  }, [dirty, onDirtyChange]);
  useEffect(() => () => onDirtyChange(false), [onDirtyChange]);

  function change(patch: Partial<LessonValues>) {
    const next = { ...values, ...patch };
    setValues(next);
    const parsed = LessonFieldsSchema.safeParse(next);
    if (!parsed.success) {
      const found = fieldErrors(parsed.error);
      setErrors(found);
      autosave.invalid(firstError(found) ?? 'Check the lesson');
      return;
    }
    setErrors({});
    autosave.schedule(parsed.data);
  }

  return (
    <Stack gap="md">
      <SaveStatus
        state={autosave.state}
        onReload={() => {
          autosave.reset();
          void onReload();
        }}
      />
      <TextInput
        label="Lesson title"
        required
        value={values.title}
        error={errors.title}
        onChange={(e) => change({ title: e.currentTarget.value })}
      />
      <NumberInput
        label="Duration (minutes)"
        description="How long the lesson takes; empty when unknown"
        min={1}
        max={10_000}
        allowDecimal={false}
        allowNegative={false}
        value={values.durationMinutes ?? ''}
        error={errors.durationMinutes}
        onChange={(v) => change({ durationMinutes: typeof v === 'number' ? v : null })}
        maw={240}
      />
      <RichTextEditor
        label="Lesson content"
        value={values.bodyHtml}
        error={errors.bodyHtml}
        onChange={(bodyHtml) => change({ bodyHtml })}
      />
    </Stack>
  );
}
