/**
 * The app's one date input: Mantine's DateInput with what it leaves out for assistive technology
 * — names for the calendar's own buttons and for the clear button — and weekends not set in red
 * (below AA contrast on the light grid; axe: color-contrast). Every date field uses it.
 */
import { DateInput, type DateInputProps } from '@mantine/dates';
import '@mantine/dates/styles.css';
import dayjs from 'dayjs';

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

/**
 * The optional end date of a role given in a dialog (a department's members, a course's
 * participants): a day from today on; `endOfDayIso` sends it, `dayOf` fills it from the API.
 */
export function EndDateField({
  value,
  onChange,
  description,
  placeholder,
}: {
  value: string | null;
  onChange(day: string | null): void;
  description: string;
  placeholder: string;
}) {
  return (
    <DateField
      label="End date"
      clearLabel="Clear the end date"
      description={description}
      placeholder={placeholder}
      clearable
      valueFormat="D MMM YYYY"
      value={value}
      onChange={onChange}
      minDate={dayjs().format('YYYY-MM-DD')}
      popoverProps={{ withinPortal: true }}
    />
  );
}

/** A picked day (YYYY-MM-DD) as the end of that day in the user's time zone; null for none. */
export function endOfDayIso(day: string | null): string | null {
  return day ? dayjs(day).endOf('day').toISOString() : null;
}

/** The day (YYYY-MM-DD) an instant falls on where the user is; null for none. */
export function dayOf(iso: string | null): string | null {
  return iso ? dayjs(iso).format('YYYY-MM-DD') : null;
}
