/**
 * The structure step: sections and lessons — add, rename, delete (confirmed), and reorder by
 * drag and drop (pointer or keyboard, dnd-kit) or with the Move up / Move down buttons. Lessons
 * may move between sections. Every reorder is saved at once with PUT /api/courses/:id/outline.
 */
import {
  closestCorners,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type DragOverEvent,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import {
  LessonCreateSchema,
  SectionCreateSchema,
  type CourseDetail,
  type Section,
} from '@learning-hub/core';
import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Group,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  IconArrowDown,
  IconArrowUp,
  IconGripVertical,
  IconPencil,
  IconTrash,
} from '@tabler/icons-react';
import { useMemo, useState, type ReactNode } from 'react';
import {
  useCreateLesson,
  useCreateSection,
  useDeleteLesson,
  useDeleteSection,
  useReorderOutline,
  useUpdateLesson,
  useUpdateSection,
} from '../../classroom/api/courses-api';
import { ConfirmModal } from '../../../components/confirm-modal';
import {
  arrayMove,
  moveLesson,
  moveSection,
  outlineFromSections,
  placeLesson,
  sameOrder,
  sectionOfLesson,
  toOutlineOrder,
  type OutlineLesson,
  type OutlineSection,
} from './outline-order';
import { fieldErrors, firstError } from '../../../lib/form-errors';
import { isStaleEdit } from '../../../lib/api-client';

const sectionKey = (id: string) => `section:${id}`;
const lessonKey = (id: string) => `lesson:${id}`;
function parseKey(key: UniqueIdentifier): { kind: 'section' | 'lesson'; id: string } {
  const text = String(key);
  const at = text.indexOf(':');
  return { kind: text.slice(0, at) as 'section' | 'lesson', id: text.slice(at + 1) };
}

/** core's title rules, with their messages ("Enter the lesson title", one line, …). */
const SECTION_TITLE = SectionCreateSchema.shape.title;
const LESSON_TITLE = LessonCreateSchema.shape.title;
/** A rename refused as stale: the outline was reloaded (useUpdateLesson) and shows it now. */
const LESSON_RENAME_STALE =
  'Someone else changed this lesson since you opened it. Cancel to see it as it is now, or save again to replace their title.';

function checkTitle(schema: typeof SECTION_TITLE, value: string) {
  const parsed = schema.safeParse(value);
  return parsed.success
    ? { title: parsed.data, error: null }
    : { title: null, error: firstError(fieldErrors(parsed.error)) ?? 'Enter a title' };
}

type Pending =
  { kind: 'section'; section: OutlineSection } | { kind: 'lesson'; lesson: OutlineLesson };

export function StructureStep({ course }: { course: CourseDetail }) {
  const serverOutline = useMemo(() => outlineFromSections(course.sections), [course.sections]);
  const [draft, setDraft] = useState<{ base: Section[]; outline: OutlineSection[] } | null>(null);
  const outline = draft && draft.base === course.sections ? draft.outline : serverOutline;
  const saveOutline = useReorderOutline(course.id);
  const [orderError, setOrderError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [toDelete, setToDelete] = useState<Pending | null>(null);
  const deleteSection = useDeleteSection(course.id);
  const deleteLesson = useDeleteLesson(course.id);
  const createSection = useCreateSection(course.id);
  const [newSection, setNewSection] = useState('');
  const [newSectionError, setNewSectionError] = useState<string | null>(null);

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const titleOf = (key: UniqueIdentifier) => {
    const { kind, id } = parseKey(key);
    if (kind === 'section') return outline.find((s) => s.id === id)?.title ?? 'section';
    return sectionOfLesson(outline, id)?.lessons.find((l) => l.id === id)?.title ?? 'lesson';
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${titleOf(active.id)}.`,
    onDragOver: ({ active, over }) =>
      over
        ? `${titleOf(active.id)} is over ${titleOf(over.id)}.`
        : `${titleOf(active.id)} is not over a place.`,
    onDragEnd: ({ active, over }) =>
      over
        ? `${titleOf(active.id)} was dropped at ${titleOf(over.id)}.`
        : `${titleOf(active.id)} was dropped.`,
    onDragCancel: ({ active }) => `Moving ${titleOf(active.id)} was cancelled.`,
  };

  function commit(next: OutlineSection[], movedTitle?: string) {
    if (sameOrder(next, serverOutline)) {
      setDraft(null);
      return;
    }
    setDraft({ base: course.sections, outline: next });
    setOrderError(null);
    saveOutline.mutate(toOutlineOrder(next), {
      onSuccess: () =>
        setAnnouncement(
          movedTitle ? `Moved ${movedTitle}. The order is saved.` : 'The order is saved.',
        ),
      onError: (error) => {
        setDraft(null);
        setOrderError(`Couldn't save the order: ${error.message}`);
      },
    });
  }

  function onDragOver({ active, over }: DragOverEvent) {
    if (!over) return;
    const a = parseKey(active.id);
    if (a.kind !== 'lesson') return;
    const o = parseKey(over.id);
    const from = sectionOfLesson(outline, a.id);
    const target =
      o.kind === 'section' ? outline.find((s) => s.id === o.id) : sectionOfLesson(outline, o.id);
    if (!from || !target || from.id === target.id) return;
    const index =
      o.kind === 'lesson' ? target.lessons.findIndex((l) => l.id === o.id) : target.lessons.length;
    setDraft({ base: course.sections, outline: placeLesson(outline, a.id, target.id, index) });
  }

  function onDragEnd({ active, over }: DragEndEvent) {
    const a = parseKey(active.id);
    let next = outline;
    if (over) {
      const o = parseKey(over.id);
      if (a.kind === 'section' && o.kind === 'section') {
        const from = outline.findIndex((s) => s.id === a.id);
        const to = outline.findIndex((s) => s.id === o.id);
        if (from >= 0 && to >= 0) next = arrayMove(outline, from, to);
      } else if (a.kind === 'lesson' && o.kind === 'lesson') {
        const section = sectionOfLesson(outline, a.id);
        if (section && section.lessons.some((l) => l.id === o.id)) {
          const from = section.lessons.findIndex((l) => l.id === a.id);
          const to = section.lessons.findIndex((l) => l.id === o.id);
          next = outline.map((s) =>
            s.id === section.id ? { ...s, lessons: arrayMove(s.lessons, from, to) } : s,
          );
        }
      }
    }
    commit(next, titleOf(active.id));
  }

  function addSection() {
    const { title, error } = checkTitle(SECTION_TITLE, newSection);
    setNewSectionError(error);
    if (title === null) return;
    createSection.mutate(
      { title },
      {
        onSuccess: () => setNewSection(''),
        onError: (error) => setNewSectionError(error.message),
      },
    );
  }

  const deleting = deleteSection.isPending || deleteLesson.isPending;
  const deleteError = (deleteSection.error ?? deleteLesson.error)?.message ?? null;

  return (
    <Stack gap="md">
      <Title order={2}>Structure</Title>
      <Text size="sm" c="dimmed">
        Drag sections and lessons by their handle (or focus the handle, press Space, move with the
        arrow keys and press Space again), or use the Move up and Move down buttons. Lessons can
        move into another section. The order is saved at once.
      </Text>
      {orderError && (
        <Alert color="red" role="alert">
          {orderError}
        </Alert>
      )}
      <Text role="status" size="sm" c="dimmed">
        {saveOutline.isPending ? 'Saving the order…' : announcement}
      </Text>
      {outline.length === 0 && <Text>No sections yet. Add the first section below.</Text>}
      <DndContext
        sensors={sensors}
        collisionDetection={closestCorners}
        onDragOver={onDragOver}
        onDragEnd={onDragEnd}
        onDragCancel={() => setDraft(null)}
        accessibility={{ announcements }}
      >
        <SortableContext
          items={outline.map((s) => sectionKey(s.id))}
          strategy={verticalListSortingStrategy}
        >
          <Stack gap="sm">
            {outline.map((section, index) => (
              <SectionCard
                key={section.id}
                courseId={course.id}
                section={section}
                first={index === 0}
                last={index === outline.length - 1}
                firstLessonId={outline[0]?.lessons[0]?.id ?? null}
                lastLessonId={outline.at(-1)?.lessons.at(-1)?.id ?? null}
                busy={saveOutline.isPending}
                onMoveSection={(by) => commit(moveSection(outline, section.id, by), section.title)}
                onMoveLesson={(lesson, by) =>
                  commit(moveLesson(outline, lesson.id, by), lesson.title)
                }
                onDelete={(pending) => {
                  deleteSection.reset();
                  deleteLesson.reset();
                  setToDelete(pending);
                }}
              />
            ))}
          </Stack>
        </SortableContext>
      </DndContext>
      <Group align="flex-start" gap="xs" wrap="wrap">
        <TextInput
          label="New section title"
          value={newSection}
          error={newSectionError}
          onChange={(e) => setNewSection(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              addSection();
            }
          }}
          style={{ flex: 1, minWidth: 200 }}
        />
        <Button mt={25} onClick={addSection} loading={createSection.isPending}>
          Add section
        </Button>
      </Group>
      <ConfirmModal
        opened={toDelete !== null}
        title={
          toDelete?.kind === 'section'
            ? `Delete section "${toDelete.section.title}"?`
            : `Delete lesson "${toDelete?.kind === 'lesson' ? toDelete.lesson.title : ''}"?`
        }
        confirmLabel="Delete"
        danger
        busy={deleting}
        error={deleteError}
        onClose={() => setToDelete(null)}
        onConfirm={() => {
          if (!toDelete) return;
          const done = { onSuccess: () => setToDelete(null) };
          if (toDelete.kind === 'section') deleteSection.mutate(toDelete.section.id, done);
          else deleteLesson.mutate(toDelete.lesson.id, done);
        }}
      >
        {toDelete?.kind === 'section'
          ? toDelete.section.lessons.length > 0
            ? `Its ${toDelete.section.lessons.length} lesson(s) are deleted with it. This cannot be undone.`
            : 'This cannot be undone.'
          : 'The lesson and its content are deleted. This cannot be undone.'}
      </ConfirmModal>
    </Stack>
  );
}

function SortableRow({
  id,
  label,
  children,
  handleLabel,
}: {
  id: string;
  label: string;
  handleLabel: string;
  children: (handle: ReactNode) => ReactNode;
}) {
  const {
    attributes,
    listeners,
    setNodeRef,
    setActivatorNodeRef,
    transform,
    transition,
    isDragging,
  } = useSortable({ id });
  const handle = (
    <ActionIcon
      ref={setActivatorNodeRef}
      variant="subtle"
      color="gray"
      aria-label={handleLabel}
      style={{ cursor: 'grab', touchAction: 'none' }}
      {...attributes}
      {...listeners}
    >
      <IconGripVertical size={18} aria-hidden />
    </ActionIcon>
  );
  return (
    <div
      ref={setNodeRef}
      aria-label={label}
      role="group"
      style={{
        transform: CSS.Transform.toString(transform),
        transition,
        opacity: isDragging ? 0.6 : 1,
      }}
    >
      {children(handle)}
    </div>
  );
}

function MoveButtons({
  title,
  upDisabled,
  downDisabled,
  busy,
  onMove,
}: {
  title: string;
  upDisabled: boolean;
  downDisabled: boolean;
  busy: boolean;
  onMove(by: -1 | 1): void;
}) {
  return (
    <>
      <ActionIcon
        variant="subtle"
        aria-label={`Move up: ${title}`}
        title="Move up"
        disabled={upDisabled || busy}
        onClick={() => onMove(-1)}
      >
        <IconArrowUp size={18} aria-hidden />
      </ActionIcon>
      <ActionIcon
        variant="subtle"
        aria-label={`Move down: ${title}`}
        title="Move down"
        disabled={downDisabled || busy}
        onClick={() => onMove(1)}
      >
        <IconArrowDown size={18} aria-hidden />
      </ActionIcon>
    </>
  );
}

function RenameForm({
  label,
  schema,
  initial,
  busy,
  serverError,
  onSave,
  onCancel,
}: {
  label: string;
  schema: typeof SECTION_TITLE;
  initial: string;
  busy: boolean;
  serverError: string | null;
  onSave(title: string): void;
  onCancel(): void;
}) {
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  function save() {
    const checked = checkTitle(schema, value);
    setError(checked.error);
    if (checked.title !== null) onSave(checked.title);
  }
  return (
    <Group gap="xs" align="flex-start" wrap="wrap" style={{ flex: 1 }}>
      <TextInput
        label={label}
        value={value}
        error={error ?? serverError}
        data-autofocus
        onChange={(e) => setValue(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            save();
          } else if (e.key === 'Escape') onCancel();
        }}
        style={{ flex: 1, minWidth: 160 }}
      />
      <Button mt={25} size="sm" onClick={save} loading={busy}>
        Save
      </Button>
      <Button mt={25} size="sm" variant="default" onClick={onCancel}>
        Cancel
      </Button>
    </Group>
  );
}

function SectionCard({
  courseId,
  section,
  first,
  last,
  firstLessonId,
  lastLessonId,
  busy,
  onMoveSection,
  onMoveLesson,
  onDelete,
}: {
  courseId: string;
  section: OutlineSection;
  first: boolean;
  last: boolean;
  firstLessonId: string | null;
  lastLessonId: string | null;
  busy: boolean;
  onMoveSection(by: -1 | 1): void;
  onMoveLesson(lesson: OutlineLesson, by: -1 | 1): void;
  onDelete(pending: Pending): void;
}) {
  const rename = useUpdateSection(courseId);
  const renameLesson = useUpdateLesson(courseId);
  const createLesson = useCreateLesson(courseId);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [newLesson, setNewLesson] = useState('');
  const [newLessonError, setNewLessonError] = useState<string | null>(null);

  function addLesson() {
    const { title, error } = checkTitle(LESSON_TITLE, newLesson);
    setNewLessonError(error);
    if (title === null) return;
    createLesson.mutate(
      { sectionId: section.id, title },
      {
        onSuccess: () => setNewLesson(''),
        onError: (error) => setNewLessonError(error.message),
      },
    );
  }

  return (
    <SortableRow
      id={sectionKey(section.id)}
      label={`Section: ${section.title}`}
      handleLabel={`Drag section: ${section.title}`}
    >
      {(handle) => (
        <Card withBorder padding="sm">
          <Stack gap="xs">
            <Group gap="xs" wrap="nowrap" align="center">
              {handle}
              {renaming === section.id ? (
                <RenameForm
                  label="Section title"
                  schema={SECTION_TITLE}
                  initial={section.title}
                  busy={rename.isPending}
                  serverError={rename.error?.message ?? null}
                  onCancel={() => setRenaming(null)}
                  onSave={(title) =>
                    rename.mutate(
                      { sectionId: section.id, title },
                      { onSuccess: () => setRenaming(null) },
                    )
                  }
                />
              ) : (
                <>
                  <Text fw={600} style={{ flex: 1, minWidth: 0 }} truncate>
                    {section.title}
                  </Text>
                  <Group gap={2} wrap="nowrap">
                    <MoveButtons
                      title={section.title}
                      upDisabled={first}
                      downDisabled={last}
                      busy={busy}
                      onMove={onMoveSection}
                    />
                    <ActionIcon
                      variant="subtle"
                      aria-label={`Rename: ${section.title}`}
                      onClick={() => {
                        rename.reset();
                        setRenaming(section.id);
                      }}
                    >
                      <IconPencil size={18} aria-hidden />
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      color="red.8"
                      aria-label={`Delete: ${section.title}`}
                      onClick={() => onDelete({ kind: 'section', section })}
                    >
                      <IconTrash size={18} aria-hidden />
                    </ActionIcon>
                  </Group>
                </>
              )}
            </Group>
            <SortableContext
              items={section.lessons.map((l) => lessonKey(l.id))}
              strategy={verticalListSortingStrategy}
            >
              <Stack gap={4} pl={{ base: 0, sm: 'lg' }}>
                {section.lessons.length === 0 && (
                  <Text size="sm" c="dimmed">
                    No lessons in this section yet.
                  </Text>
                )}
                {section.lessons.map((lesson) => (
                  <SortableRow
                    key={lesson.id}
                    id={lessonKey(lesson.id)}
                    label={`Lesson: ${lesson.title}`}
                    handleLabel={`Drag lesson: ${lesson.title}`}
                  >
                    {(lessonHandle) => (
                      <Group gap="xs" wrap="nowrap">
                        {lessonHandle}
                        {renaming === lesson.id ? (
                          <RenameForm
                            label="Lesson title"
                            schema={LESSON_TITLE}
                            initial={lesson.title}
                            busy={renameLesson.isPending}
                            serverError={
                              isStaleEdit(renameLesson.error)
                                ? LESSON_RENAME_STALE
                                : (renameLesson.error?.message ?? null)
                            }
                            onCancel={() => setRenaming(null)}
                            onSave={(title) =>
                              renameLesson.mutate(
                                { lessonId: lesson.id, title, revision: lesson.revision },
                                { onSuccess: () => setRenaming(null) },
                              )
                            }
                          />
                        ) : (
                          <>
                            <Text size="sm" style={{ flex: 1, minWidth: 0 }} truncate>
                              {lesson.title}
                            </Text>
                            <Group gap={2} wrap="nowrap">
                              <MoveButtons
                                title={lesson.title}
                                upDisabled={lesson.id === firstLessonId}
                                downDisabled={lesson.id === lastLessonId}
                                busy={busy}
                                onMove={(by) => onMoveLesson(lesson, by)}
                              />
                              <ActionIcon
                                variant="subtle"
                                aria-label={`Rename: ${lesson.title}`}
                                onClick={() => {
                                  renameLesson.reset();
                                  setRenaming(lesson.id);
                                }}
                              >
                                <IconPencil size={18} aria-hidden />
                              </ActionIcon>
                              <ActionIcon
                                variant="subtle"
                                color="red.8"
                                aria-label={`Delete: ${lesson.title}`}
                                onClick={() => onDelete({ kind: 'lesson', lesson })}
                              >
                                <IconTrash size={18} aria-hidden />
                              </ActionIcon>
                            </Group>
                          </>
                        )}
                      </Group>
                    )}
                  </SortableRow>
                ))}
              </Stack>
            </SortableContext>
            <Group gap="xs" align="flex-start" wrap="wrap" pl={{ base: 0, sm: 'lg' }}>
              <TextInput
                label={`New lesson in ${section.title}`}
                placeholder="Lesson title"
                size="sm"
                value={newLesson}
                error={newLessonError}
                onChange={(e) => setNewLesson(e.currentTarget.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    addLesson();
                  }
                }}
                style={{ flex: 1, minWidth: 180 }}
              />
              <Button
                mt={25}
                size="sm"
                variant="light"
                loading={createLesson.isPending}
                onClick={addLesson}
                aria-label={`Add lesson to ${section.title}`}
              >
                Add lesson
              </Button>
            </Group>
          </Stack>
        </Card>
      )}
    </SortableRow>
  );
}
