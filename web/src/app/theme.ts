import {
  createTheme,
  type CSSVariablesResolver,
  type MantineColorsTuple,
  type ModalProps,
  type NotificationProps,
  type ScrollAreaProps,
} from '@mantine/core';

/** The one brand colour: a calm fiber blue, shades chosen for WCAG AA text contrast. */
const brand: MantineColorsTuple = [
  '#e7f3ff',
  '#d0e3fa',
  '#a2c5ef',
  '#7aabe7',
  '#5f99e2',
  '#3b80d9',
  '#1966c6',
  '#0b57b3',
  '#0050a5',
  '#004392',
];

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: { light: 7, dark: 8 },
  colors: { brand },
  defaultRadius: 'md',
  // Focus rings on keyboard focus (:focus-visible), never removed.
  focusRing: 'auto',
  cursorType: 'pointer',
  // No sliding or fading for people who ask their system for reduced motion.
  respectReducedMotion: true,
  headings: { fontWeight: '650' },
  // Plain objects rather than `Modal.extend(…)`: that would import the components themselves into
  // the first chunk, which loads on every page (docs/front-end.md).
  components: {
    // Every dialog's and notification's close button has a name (axe: button-name), and
    // notification text uses the AA dimmed colour (Mantine's default is 3.3:1 on white).
    // A spinner is named by its aria-label, and a name needs a role (axe: aria-prohibited-attr):
    // an indeterminate progress bar is the role of a busy indicator. Spinners that only decorate
    // a labelled button set aria-hidden.
    Loader: {
      defaultProps: { role: 'progressbar' },
    },
    Modal: {
      defaultProps: {
        closeButtonProps: { 'aria-label': 'Close' },
      } satisfies Partial<ModalProps>,
    },
    Notification: {
      defaultProps: {
        closeButtonProps: { 'aria-label': 'Close notification' },
      } satisfies Partial<NotificationProps>,
      styles: { description: { color: 'var(--mantine-color-dimmed)' } },
    },
    // A table wider than a phone scrolls sideways: its scroll bar is always shown when there is
    // more to the side, so the clipped columns are not a secret (docs/front-end.md, phones), and
    // its scroll area takes keyboard focus so it can be scrolled with the arrow keys (axe:
    // scrollable-region-focusable).
    TableScrollContainer: {
      defaultProps: {
        scrollAreaProps: {
          type: 'auto',
          scrollbarSize: 10,
          offsetScrollbars: 'x',
          viewportProps: { tabIndex: 0 },
        } satisfies Partial<ScrollAreaProps>,
      },
    },
  },
});

/** The theme for a person who chose to keep animations whatever their device asks (docs/settings.md). */
export const themeAllowingMotion = { ...theme, respectReducedMotion: false };

/**
 * Mantine's default dimmed text is below WCAG AA contrast: use darker (lighter in dark) shades.
 * So is the text of its light variants (alert titles, light badges) in yellow, orange, green and
 * red on a white page: darker text, at least 4.5:1 on the tinted background. In the dark scheme,
 * links are a lighter blue (and underlined in running text: app.css).
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-yellow-light-color': '#7a4d00',
    '--mantine-color-orange-light-color': '#a13b06',
    '--mantine-color-green-light-color': '#1e6b30',
    '--mantine-color-red-light-color': 'var(--mantine-color-red-9)',
  },
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    // A lighter blue for links: shade 4 fell below 4.5:1 on the blue of an info alert.
    '--mantine-color-anchor': 'var(--mantine-color-brand-3)',
  },
});
