/**
 * The course creator (`/course/create` and `/course-creator`, spec §2; docs/classroom.md): a
 * stepper — Basics, Structure, Lessons, Assignments, Publish. Without `?course=` it creates a
 * draft from a code and a title and then switches the URL to `?course=<id>`; with it, it edits
 * that course, saving the basics and lesson bodies on their own (PATCH with the course's revision,
 * so a stale edit is refused and offered a reload) and warning before leaving with unsaved
 * changes. An archived course shows only its publish step, where its editors restore it.
 */
import type { CourseDetail, CourseUpdate } from '@learning-hub/core';
import { Badge, Button, Group, Stack, Stepper, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { AccessDeniedRedirect } from '../../../components/access-denied-redirect';
import { CourseAssignments } from '../../classroom/components/course-assignments';

import { COURSE_STATE_COLORS, COURSE_STATE_LABELS } from '../../classroom/course-format';
import { useCourse, useCreateCourse, useUpdateCourse } from '../../classroom/api/courses-api';
import {
  BasicsForm,
  basicsFromCourse,
  basicsToPayload,
  EMPTY_BASICS,
  firstError,
  validateBasics,
  type BasicsValues,
} from './basics-form';
import { preloadRichTextEditor } from '../../../components/rich-text/rich-text-editor';
import { LessonsStep } from './lessons-step';
import { PublishStep } from './publish-step';
import { SaveStatus } from './save-status';
import { StructureStep } from './structure-step';
import { useAutosave } from './use-autosave';
import { LeaveGuard } from '../../../components/leave-guard';
import { href } from '../../../lib/links';
import { QueryState, ErrorAlert } from '../../../components/query-state';

const STEPS = ['Basics', 'Structure', 'Lessons', 'Assignments', 'Publish'] as const;

/** What the refusal of a course one may not edit says (the server's reason for a PATCH). */
const NOT_AN_EDITOR = 'Missing required permission: course.edit';

export function CourseCreatorPage() {
  // Every step has rich-text fields: the editor's code loads while the course does.
  useEffect(() => void preloadRichTextEditor(), []);
  const [params] = useSearchParams();
  const courseId = params.get('course');
  return (
    <Stack gap="lg">
      <Title order={1}>Course Creator</Title>
      {courseId ? <CourseLoader key={courseId} courseId={courseId} /> : <CreateDraft />}
    </Stack>
  );
}

function CreateDraft() {
  const [, setParams] = useSearchParams();
  const create = useCreateCourse();
  const [values, setValues] = useState<BasicsValues>(EMPTY_BASICS);
  const [showErrors, setShowErrors] = useState(false);
  const errors = showErrors ? validateBasics(values) : {};
  const dirty = !create.isSuccess && (values.code !== '' || values.title !== '');

  function submit() {
    const found = validateBasics(values);
    setShowErrors(true);
    if (firstError(found)) return;
    create.mutate(basicsToPayload(values), {
      onSuccess: (course) => setParams({ course: course.id }),
    });
  }

  return (
    <>
      <LeaveGuard dirty={dirty} />
      <Stepper active={0} allowNextStepsSelect={false} size="sm">
        {STEPS.map((label, index) => (
          <Stepper.Step
            key={label}
            label={label}
            description={index === 0 ? 'Code and title are enough to start' : undefined}
          >
            {index === 0 && (
              <form
                noValidate
                onSubmit={(e) => {
                  e.preventDefault();
                  submit();
                }}
              >
                <Stack gap="md" mt="md">
                  <Title order={2}>Basics</Title>
                  <Text size="sm" c="dimmed">
                    A draft needs only a code and a title; everything else can follow. Drafts are
                    seen only by the people who can edit them.
                  </Text>
                  <BasicsForm
                    values={values}
                    errors={errors}
                    coverUrl={null}
                    onChange={(patch) => setValues((v) => ({ ...v, ...patch }))}
                  />
                  {create.isError && <ErrorAlert error={create.error} />}
                  <Group>
                    <Button type="submit" loading={create.isPending}>
                      Create draft
                    </Button>
                  </Group>
                </Stack>
              </form>
            )}
          </Stepper.Step>
        ))}
      </Stepper>
    </>
  );
}

function CourseLoader({ courseId }: { courseId: string }) {
  const course = useCourse(courseId);
  if (course.isPending || course.isError) {
    return (
      <QueryState
        query={course}
        label="Loading the course"
        size="page"
        denied={{ page: 'this course' }}
        errorTitle="Couldn't load the course"
      />
    );
  }
  if (course.data.viewer.canRestore) return <ArchivedCourse course={course.data} />;
  if (!course.data.viewer.canEdit) {
    // Someone who may see the course but not change it: to its page, saying why.
    return (
      <AccessDeniedRedirect
        page="Course Creator"
        reason={NOT_AN_EDITOR}
        to={href('course', { courseId })}
      />
    );
  }
  return (
    <CourseEditor
      course={course.data}
      reload={async () => {
        const fresh = await course.refetch();
        return fresh.data ?? null;
      }}
    />
  );
}

function CourseHeading({ course }: { course: CourseDetail }) {
  return (
    <Group gap="xs" wrap="wrap">
      <Text fw={600}>
        {course.code} · {course.title}
      </Text>
      <Badge variant="light" color={COURSE_STATE_COLORS[course.state]}>
        {COURSE_STATE_LABELS[course.state]}
      </Badge>
    </Group>
  );
}

/** An archived course is read-only: only its publish step, where it is restored. */
function ArchivedCourse({ course }: { course: CourseDetail }) {
  const update = useUpdateCourse(course.id);
  return (
    <>
      <CourseHeading course={course} />
      <PublishStep
        course={course}
        unsaved={false}
        changeState={async (state) => {
          await update.mutateAsync({ state, revision: course.revision });
        }}
      />
    </>
  );
}

function CourseEditor({
  course,
  reload,
}: {
  course: CourseDetail;
  reload(): Promise<CourseDetail | null>;
}) {
  const [active, setActive] = useState(0);
  const update = useUpdateCourse(course.id);
  // The revision this editor last saw from the server: a PATCH sends it, so edits made meanwhile
  // by someone else are refused (409) instead of overwritten.
  const revision = useRef(course.revision);
  const patchCourse = useCallback(
    async (changes: CourseUpdate) => {
      const updated = await update.mutateAsync({ ...changes, revision: revision.current });
      revision.current = updated.revision;
    },
    [update],
  );

  const [values, setValues] = useState<BasicsValues>(() => basicsFromCourse(course));
  const errors = validateBasics(values);
  const basics = useAutosave<BasicsValues>((v) => patchCourse(basicsToPayload(v)));
  const [lessonDirty, setLessonDirty] = useState(false);
  const [lessonId, setLessonId] = useState<string | null>(null);
  const dirty = basics.dirty || lessonDirty;

  function change(patch: Partial<BasicsValues>) {
    const next = { ...values, ...patch };
    setValues(next);
    const problem = firstError(validateBasics(next));
    if (problem) basics.invalid(problem);
    else basics.schedule(next);
  }

  async function reloadCourse() {
    const fresh = await reload();
    if (!fresh) return;
    revision.current = fresh.revision;
    setValues(basicsFromCourse(fresh));
    basics.reset();
  }

  return (
    <>
      <LeaveGuard dirty={dirty} />
      <CourseHeading course={course} />
      <Stepper active={active} onStepClick={setActive} size="sm">
        <Stepper.Step label="Basics">
          <Stack gap="md" mt="md">
            <Title order={2}>Basics</Title>
            <SaveStatus state={basics.state} onReload={() => void reloadCourse()} />
            <BasicsForm
              values={values}
              errors={errors}
              coverUrl={course.coverUrl}
              onChange={change}
            />
          </Stack>
        </Stepper.Step>
        <Stepper.Step label="Structure">
          <Stack mt="md">
            <StructureStep course={course} />
          </Stack>
        </Stepper.Step>
        <Stepper.Step label="Lessons">
          <Stack mt="md">
            <LessonsStep
              course={course}
              lessonId={lessonId}
              onLessonChange={setLessonId}
              onDirtyChange={setLessonDirty}
            />
          </Stack>
        </Stepper.Step>
        <Stepper.Step label="Assignments">
          <Stack mt="md">
            <CourseAssignments course={course} />
          </Stack>
        </Stepper.Step>
        <Stepper.Step label="Publish">
          <Stack mt="md">
            <PublishStep
              course={course}
              unsaved={dirty}
              changeState={(state) => patchCourse({ state })}
            />
          </Stack>
        </Stepper.Step>
      </Stepper>
      <Group justify="space-between">
        <Button
          variant="default"
          disabled={active === 0}
          onClick={() => setActive((a) => Math.max(0, a - 1))}
        >
          Back
        </Button>
        <Button
          disabled={active === STEPS.length - 1}
          onClick={() => setActive((a) => Math.min(STEPS.length - 1, a + 1))}
        >
          Next step
        </Button>
      </Group>
    </>
  );
}
