/**
 * Where a learner continues a course ("continue where you left off"): not simply the lesson they
 * opened last, which may be one they finished in a course they have finished, but the next lesson
 * they have not completed. Pure: the callers read the outline and the progress.
 */

/**
 * The lesson to continue with, from the course's lessons in reading order: the lesson opened last
 * while it is unfinished, else the next unfinished lesson after it, else the first unfinished
 * lesson (from the start: one skipped earlier); null when every lesson is complete (or there are
 * none). Without a lesson opened, the first unfinished lesson.
 */
export function nextLessonToContinue(
  readingOrder: readonly string[],
  completed: ReadonlySet<string>,
  lastViewed: string | null,
): string | null {
  const from = lastViewed === null ? -1 : readingOrder.indexOf(lastViewed);
  if (from >= 0) {
    for (let i = from; i < readingOrder.length; i++) {
      const id = readingOrder[i] as string;
      if (!completed.has(id)) return id;
    }
  }
  return readingOrder.find((id) => !completed.has(id)) ?? null;
}
