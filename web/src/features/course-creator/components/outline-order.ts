/**
 * The course outline as the structure step edits it: sections in order, each with its lessons
 * in order. Moves are pure functions so the buttons, the keyboard and drag and drop share them.
 */
import type { OutlineOrder, Section } from '@learning-hub/core';

export interface OutlineLesson {
  id: string;
  title: string;
  /** The lesson's revision: a rename sends it. */
  revision: number;
}
export interface OutlineSection {
  id: string;
  title: string;
  lessons: OutlineLesson[];
}

export function outlineFromSections(sections: readonly Section[]): OutlineSection[] {
  return [...sections]
    .sort((a, b) => a.position - b.position)
    .map((s) => ({
      id: s.id,
      title: s.title,
      lessons: [...s.lessons]
        .sort((a, b) => a.position - b.position)
        .map((l) => ({ id: l.id, title: l.title, revision: l.revision })),
    }));
}

export function toOutlineOrder(outline: readonly OutlineSection[]): OutlineOrder {
  return { sections: outline.map((s) => ({ id: s.id, lessonIds: s.lessons.map((l) => l.id) })) };
}

export function sameOrder(a: readonly OutlineSection[], b: readonly OutlineSection[]): boolean {
  return JSON.stringify(toOutlineOrder(a)) === JSON.stringify(toOutlineOrder(b));
}

/** Moves a section one place up (-1) or down (+1); unchanged at either end. */
export function moveSection(
  outline: readonly OutlineSection[],
  sectionId: string,
  by: -1 | 1,
): OutlineSection[] {
  const from = outline.findIndex((s) => s.id === sectionId);
  const to = from + by;
  if (from < 0 || to < 0 || to >= outline.length) return [...outline];
  return arrayMove(outline, from, to);
}

/**
 * Moves a lesson one place up or down; past the first or last place of its section it goes to
 * the end of the previous section or the start of the next one.
 */
export function moveLesson(
  outline: readonly OutlineSection[],
  lessonId: string,
  by: -1 | 1,
): OutlineSection[] {
  const s = outline.findIndex((section) => section.lessons.some((l) => l.id === lessonId));
  if (s < 0) return [...outline];
  const section = outline[s]!;
  const i = section.lessons.findIndex((l) => l.id === lessonId);
  const next = outline.map((x) => ({ ...x, lessons: [...x.lessons] }));
  const to = i + by;
  if (to >= 0 && to < section.lessons.length) {
    next[s]!.lessons = arrayMove(section.lessons, i, to);
    return next;
  }
  const target = s + by;
  if (target < 0 || target >= outline.length) return next;
  const [lesson] = next[s]!.lessons.splice(i, 1);
  if (by < 0) next[target]!.lessons.push(lesson!);
  else next[target]!.lessons.unshift(lesson!);
  return next;
}

/** Puts a lesson into a section at an index (drag and drop between sections). */
export function placeLesson(
  outline: readonly OutlineSection[],
  lessonId: string,
  sectionId: string,
  index: number,
): OutlineSection[] {
  let moved: OutlineLesson | undefined;
  const without = outline.map((s) => {
    const found = s.lessons.find((l) => l.id === lessonId);
    if (found) moved = found;
    return { ...s, lessons: s.lessons.filter((l) => l.id !== lessonId) };
  });
  if (!moved) return [...outline];
  return without.map((s) => {
    if (s.id !== sectionId) return s;
    const lessons = [...s.lessons];
    lessons.splice(Math.max(0, Math.min(index, lessons.length)), 0, moved!);
    return { ...s, lessons };
  });
}

export function sectionOfLesson(outline: readonly OutlineSection[], lessonId: string) {
  return outline.find((s) => s.lessons.some((l) => l.id === lessonId)) ?? null;
}

export function arrayMove<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item as T);
  return next;
}
