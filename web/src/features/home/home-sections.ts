/**
 * The sections the areas contribute to the start page (docs/front-end.md, "The start page"), in
 * the order they come, above the start page's own (learning, teaching, admin, wiki). Each is a
 * lazily loaded component of its area and, optionally, the query of its first data, which the
 * start page asks for at once, beside the component's chunk; the sections below wait until these
 * have settled, so nothing is pushed down when they arrive.
 */
import type { ComponentType } from 'react';
import type { Can } from '../../lib/auth/use-can';
import { announcementsHomeSection } from '../announcements/home';

export interface HomeSectionContribution {
  /** Unique among the sections (the React key). */
  id: string;
  /** Whether the signed-in user gets the section (core's checks, through `can`). */
  shows(can: Can): boolean;
  /** The section's component: a chunk of the area's own. */
  load(): Promise<ComponentType>;
  /**
   * The query its component reads first (TanStack Query's `queryOptions`), asked for as the page
   * starts.
   */
  query?(): { queryKey: readonly unknown[] };
}

/** The contributed sections, first first. */
export const HOME_SECTIONS: readonly HomeSectionContribution[] = [announcementsHomeSection];
