/**
 * The publish step: what is still missing, a preview of the course as a learner sees it, the
 * state changes (publish, unpublish, archive, restore), the way to the course's page once it is
 * published, and copying the course as a new run. Only a published course is archived (a draft is
 * published or deleted: docs/classroom.md).
 */
import { CourseCopySchema, type CourseDetail, type CourseState } from '@learning-hub/core';
import {
  Alert,
  Badge,
  Button,
  Group,
  List,
  Loader,
  Modal,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowRight, IconCheck, IconX } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { RichTextView } from '../../../components/rich-text/rich-text-view';
import { COURSE_STATE_COLORS, COURSE_STATE_LABELS } from '../../classroom/course-format';
import { useCopyCourse } from '../../classroom/api/courses-api';
import { useLessons } from '../api/creator-api';
import { outlineFromSections } from './outline-order';
import { fieldErrors } from '../../../lib/form-errors';
import { href } from '../../../lib/links';
import { FormActions, FormModal } from '../../../components/form-modal';

export interface CheckItem {
  label: string;
  done: boolean;
  /** Publishing waits for the required ones. */
  required: boolean;
}

export function publishChecklist(course: CourseDetail, unsaved: boolean): CheckItem[] {
  const lessons = course.sections.reduce((n, s) => n + s.lessons.length, 0);
  const emptySummary = course.summaryHtml.replace(/<[^>]*>/g, '').trim() === '';
  const datesInOrder =
    !course.startsAt || !course.endsAt || Date.parse(course.startsAt) <= Date.parse(course.endsAt);
  return [
    { label: 'Has a title', done: course.title.trim() !== '', required: true },
    { label: 'Has at least one lesson', done: lessons > 0, required: true },
    {
      label: 'Every section has a lesson',
      done: course.sections.every((s) => s.lessons.length > 0),
      required: false,
    },
    { label: 'Has a summary', done: !emptySummary, required: false },
    { label: 'Has a cover image', done: course.coverFileId !== null, required: false },
    ...(course.enrolmentMode === 'key'
      ? [{ label: 'Has an enrolment key', done: !!course.enrolmentKey, required: true }]
      : []),
    { label: 'The start date is not after the end date', done: datesInOrder, required: true },
    { label: 'All changes are saved', done: !unsaved, required: true },
  ];
}

export function PublishStep({
  course,
  unsaved,
  changeState,
}: {
  course: CourseDetail;
  unsaved: boolean;
  /** PATCH the state (with the course's revision); rejects with the server's error. */
  changeState(state: CourseState): Promise<void>;
}) {
  const checklist = publishChecklist(course, unsaved);
  const ready = checklist.every((c) => !c.required || c.done);
  const [busy, setBusy] = useState<CourseState | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState(false);
  const [copying, setCopying] = useState(false);
  // Publishing takes away the button that had the focus: it goes to View course instead.
  const [justPublished, setJustPublished] = useState(false);
  const viewCourse = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    if (justPublished && course.state === 'published') viewCourse.current?.focus();
  }, [justPublished, course.state]);

  async function moveTo(state: CourseState, done: string) {
    setBusy(state);
    setError(null);
    try {
      await changeState(state);
      notifications.show({ color: 'green', title: done, message: course.title });
      setJustPublished(state === 'published');
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The change was not saved');
    } finally {
      setBusy(null);
    }
  }

  return (
    <Stack gap="md">
      <Title order={2}>Publish</Title>
      <Group gap="xs">
        <Text>State:</Text>
        <Badge variant="light" color={COURSE_STATE_COLORS[course.state]}>
          {COURSE_STATE_LABELS[course.state]}
        </Badge>
      </Group>
      <section aria-labelledby="checklist-heading">
        <Title order={3} size="h4" id="checklist-heading" mb="xs">
          Checklist
        </Title>
        <List spacing="xs" listStyleType="none" aria-labelledby="checklist-heading">
          {checklist.map((item) => (
            <List.Item
              key={item.label}
              icon={
                <ThemeIcon
                  color={item.done ? 'green' : item.required ? 'red' : 'gray'}
                  size={20}
                  radius="xl"
                >
                  {item.done ? (
                    <IconCheck size={14} aria-hidden />
                  ) : (
                    <IconX size={14} aria-hidden />
                  )}
                </ThemeIcon>
              }
            >
              {item.label}
              {': '}
              {item.done
                ? 'done'
                : item.required
                  ? 'missing (needed to publish)'
                  : 'missing (recommended)'}
            </List.Item>
          ))}
        </List>
      </section>
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      {course.state === 'published' && (
        <Alert color="green" title="Published">
          Learners can find this course in the catalogue and enrol.
        </Alert>
      )}
      <Group gap="sm" wrap="wrap">
        {course.state !== 'draft' && (
          <Button
            ref={viewCourse}
            component={Link}
            to={href('course', { courseId: course.id })}
            rightSection={<IconArrowRight size={16} aria-hidden="true" />}
          >
            View course
          </Button>
        )}
        <Button variant="default" onClick={() => setPreviewing(true)}>
          Preview as a student
        </Button>
        {course.state === 'draft' && (
          <Button
            disabled={!ready}
            loading={busy === 'published'}
            onClick={() => void moveTo('published', 'Course published')}
          >
            Publish
          </Button>
        )}
        {course.state === 'published' && (
          <Button
            variant="default"
            loading={busy === 'draft'}
            onClick={() => void moveTo('draft', 'Course unpublished')}
          >
            Unpublish
          </Button>
        )}
        {course.state === 'published' && (
          <Button
            variant="default"
            color="red.8"
            loading={busy === 'archived'}
            onClick={() => void moveTo('archived', 'Course archived')}
          >
            Archive
          </Button>
        )}
        {course.state === 'archived' && (
          <Button
            loading={busy === 'draft'}
            onClick={() => void moveTo('draft', 'Course restored as a draft')}
          >
            Restore
          </Button>
        )}
        <Button variant="light" onClick={() => setCopying(true)}>
          Copy as new run
        </Button>
      </Group>
      {!ready && course.state === 'draft' && (
        <Text size="sm" c="dimmed">
          Publishing needs every item marked as needed.
        </Text>
      )}
      {course.state === 'archived' && (
        <Text size="sm" c="dimmed">
          An archived course is read-only and hidden from the catalogue. Restoring makes it a draft
          again.
        </Text>
      )}
      <Modal
        opened={previewing}
        onClose={() => setPreviewing(false)}
        title={`Student preview: ${course.title}`}
        fullScreen
        closeButtonProps={{ 'aria-label': 'Close preview' }}
      >
        {previewing && <StudentPreview course={course} />}
      </Modal>
      <CopyModal course={course} opened={copying} onClose={() => setCopying(false)} />
    </Stack>
  );
}

function StudentPreview({ course }: { course: CourseDetail }) {
  const outline = outlineFromSections(course.sections);
  const lessonIds = outline.flatMap((s) => s.lessons.map((l) => l.id));
  const lessons = useLessons(course.id, lessonIds);
  const byId = new Map(lessonIds.map((id, i) => [id, lessons[i]] as const));
  return (
    <Stack gap="lg">
      <Text c="dimmed">This is how learners will see the course; nothing here can be edited.</Text>
      <RichTextView html={course.summaryHtml} />
      {outline.map((section) => (
        <Stack key={section.id} gap="sm" component="section" aria-label={section.title}>
          <Title order={3}>{section.title}</Title>
          {section.lessons.map((l) => {
            const q = byId.get(l.id);
            return (
              <Stack key={l.id} gap={4} component="article" aria-label={l.title}>
                <Title order={4}>{l.title}</Title>
                {q?.isLoading && <Loader size="xs" aria-label={`Loading ${l.title}`} />}
                {q?.isError && (
                  <Text c="red.8">{`Couldn't load this lesson: ${q.error.message}`}</Text>
                )}
                {q?.data && <RichTextView html={q.data.bodyHtml} />}
              </Stack>
            );
          })}
        </Stack>
      ))}
    </Stack>
  );
}

function CopyModal({
  course,
  opened,
  onClose,
}: {
  course: CourseDetail;
  opened: boolean;
  onClose(): void;
}) {
  const copy = useCopyCourse(course.id);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [code, setCode] = useState(`${course.code}-2`);
  const [title, setTitle] = useState(course.title);
  const [errors, setErrors] = useState<{ code?: string; title?: string }>({});

  function submit() {
    const parsed = CourseCopySchema.safeParse({ code, title });
    if (!parsed.success) {
      const found = fieldErrors(parsed.error);
      setErrors({ code: found.code, title: found.title });
      return;
    }
    setErrors({});
    copy.mutate(parsed.data, {
      onSuccess: (created) => {
        onClose();
        notifications.show({
          color: 'green',
          title: 'Course copied',
          message: `${created.code} is a new draft.`,
        });
        void navigate(`${pathname}?course=${encodeURIComponent(created.id)}`);
      },
    });
  }

  return (
    <FormModal opened={opened} onClose={onClose} title="Copy as a new run" centered>
      {/* Not a FormStack: the browser asks for the two required fields before the contract does. */}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="md">
          <Text size="sm">
            The copy is a new draft with the same structure, lessons and assignments, without
            participants, submissions or grades.
          </Text>
          <TextInput
            label="New course code"
            required
            value={code}
            error={errors.code}
            onChange={(e) => setCode(e.currentTarget.value)}
          />
          <TextInput
            label="New title"
            required
            value={title}
            error={errors.title}
            onChange={(e) => setTitle(e.currentTarget.value)}
          />
          <FormActions submitLabel="Copy course" mutation={copy} onCancel={onClose} />
        </Stack>
      </form>
    </FormModal>
  );
}
