/**
 * The owner's notice of failed attempts at their account: the server counts the attempts that
 * failed (wrong password, or refused while throttled) since the previous successful sign-in and
 * sends them with the next one; the app shows them once, until dismissed.
 */
import type { FailedAttempts } from '@learning-hub/core';
import { notifications } from '@mantine/notifications';
import { formatDateTime } from '../../lib/format';

export const FAILED_ATTEMPTS_TITLE = 'Failed sign-in attempts';

export function failedAttemptsMessage({ count, lastAt }: FailedAttempts): string {
  const attempts =
    count === 1 ? 'There was 1 failed attempt' : `There were ${count} failed attempts`;
  return (
    `${attempts} to sign in to your account since your last sign-in, the last on ` +
    `${formatDateTime(lastAt)}. If this was not you, change your password.`
  );
}

/**
 * Shows the notice, if the sign-in brought one; it stays until the user closes it. It sits at the
 * bottom right, so a notice that waits to be read never covers the header's account menu.
 */
export function notifyFailedAttempts(failedAttempts: FailedAttempts | undefined): void {
  if (!failedAttempts) return;
  notifications.show({
    id: 'failed-sign-in-attempts',
    color: 'yellow',
    title: FAILED_ATTEMPTS_TITLE,
    message: failedAttemptsMessage(failedAttempts),
    autoClose: false,
    position: 'bottom-right',
  });
}
