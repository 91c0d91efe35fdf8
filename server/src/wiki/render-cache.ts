/**
 * The render plan (links.ts) of each page revision, worked out once: a revision's HTML never
 * changes (a save writes the next revision; ids are never reused), so the plan of (page id,
 * revision) is good for every viewer and every instance. Reading a page then parses nothing; a
 * save puts the plan of the HTML it parsed anyway (for its links) here, for its own answer and
 * the reads after it. Bounded, least recently used first out.
 */
import { renderPlan, type RenderPlan } from './links';

/** Plans kept (each the size of its links and headings, not of the page). */
const CAPACITY = 2_000;

const plans = new Map<string, { length: number; plan: RenderPlan }>();

const keyOf = (pageId: string, revision: number) => `${pageId}\u0000${revision}`;

/** Keeps the plan of a revision's HTML. */
export function rememberPlan(pageId: string, revision: number, html: string, plan: RenderPlan) {
  const key = keyOf(pageId, revision);
  plans.delete(key);
  plans.set(key, { length: html.length, plan });
  if (plans.size > CAPACITY) plans.delete(plans.keys().next().value as string);
}

/** The plan of a page's HTML at a revision, from the cache or worked out (and kept). */
export function planOf(pageId: string, revision: number, html: string): RenderPlan {
  const key = keyOf(pageId, revision);
  const hit = plans.get(key);
  // The length guards against HTML that is not the revision's (never expected).
  if (hit && hit.length === html.length) {
    plans.delete(key);
    plans.set(key, hit);
    return hit.plan;
  }
  const plan = renderPlan(html);
  rememberPlan(pageId, revision, html, plan);
  return plan;
}
