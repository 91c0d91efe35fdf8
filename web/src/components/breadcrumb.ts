/**
 * The line height of a breadcrumb cut to one line (`lineClamp`). Mantine's breadcrumbs set a line
 * height of 1, and a clamped line hides what is outside it: the descenders of g, p, q, y were cut
 * off ("Splicing" read "Splicinq").
 */
export const BREADCRUMB_LINE_HEIGHT = 1.45;
