/**
 * The app's one date input: Mantine's DateInput with what it leaves out for assistive technology
 * — names for the calendar's own buttons and for the clear button — and weekends not set in red
 * (below AA contrast on the light grid; axe: color-contrast). Every date field uses it.
 */
import { DateInput, type DateInputProps } from '@mantine/dates';
import '@mantine/dates/styles.css';

/** Names of the calendar's controls (Mantine leaves them unnamed). */
export const CALENDAR_LABELS = {
  monthLevelControl: 'Choose the month',
  yearLevelControl: 'Choose the year',
  nextMonth: 'Next month',
  previousMonth: 'Previous month',
  nextYear: 'Next year',
  previousYear: 'Previous year',
  nextDecade: 'Next decade',
  previousDecade: 'Previous decade',
};

/** A DateInput whose calendar and clear button (`clearLabel`, e.g. "Clear the end date") have names. */
export function DateField({ clearLabel, ...props }: DateInputProps & { clearLabel: string }) {
  return (
    <DateInput
      ariaLabels={CALENDAR_LABELS}
      clearButtonProps={{ 'aria-label': clearLabel }}
      weekendDays={[]}
      {...props}
    />
  );
}
