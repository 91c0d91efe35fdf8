import { useMediaQuery } from '@mantine/hooks';

/**
 * A phone's screen: below Mantine's `sm` breakpoint (48em, 768 px). The one way the app lays a
 * page out differently on a phone (docs/front-end.md, "On a phone").
 */
export const PHONE_QUERY = '(max-width: 48em)';

/**
 * Whether the screen is a phone's. Read at the first render (not in an effect), so a page is laid
 * out for the phone from the start instead of drawing the wide layout first and then jumping.
 */
export function usePhone(): boolean {
  return useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false }) ?? false;
}
