import { notifications } from '@mantine/notifications';

/** The message of an error to show: the server's message, or a fallback. */
export function errorMessage(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'Something went wrong';
}

export function notifySuccess(title: string, message: string) {
  notifications.show({ color: 'green', title, message });
}

export function notifyError(title: string, error: unknown) {
  notifications.show({ color: 'red', title, message: errorMessage(error) });
}
