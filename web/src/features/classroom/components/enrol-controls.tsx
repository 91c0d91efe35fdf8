import type { CourseDetail } from '@learning-hub/core';
import { Alert, Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { errorMessage, formatDate } from '../course-format';
import { useEnrol, useUnenrol } from '../api/courses-api';
import { ErrorAlert } from '../../../components/query-state';

/**
 * Enrol, enrol with the key, or unenrol, as the server's `viewer` flags allow; when self-enrolment
 * is not possible, the server's reason in words.
 */
export function EnrolControls({ course }: { course: CourseDetail }) {
  const { viewer } = course;
  const enrol = useEnrol(course.id);
  const unenrol = useUnenrol(course.id);
  const [keyOpen, setKeyOpen] = useState(false);
  const [key, setKey] = useState('');
  const [confirmLeave, setConfirmLeave] = useState(false);

  const doEnrol = (input: { key?: string }) =>
    enrol.mutate(input, {
      onSuccess: () => {
        setKeyOpen(false);
        setKey('');
        notifications.show({
          color: 'green',
          title: 'Enrolled',
          message: `You are enrolled in ${course.title}.`,
        });
      },
    });

  if (viewer.enrolled) {
    return (
      <Stack gap="xs">
        <Text size="sm">
          {viewer.enrolmentEndsAt
            ? `You are enrolled until ${formatDate(viewer.enrolmentEndsAt)}.`
            : 'You are enrolled.'}
        </Text>
        {viewer.canUnenrol && (
          <Group>
            <Button variant="default" color="red" onClick={() => setConfirmLeave(true)}>
              Unenrol
            </Button>
          </Group>
        )}
        <Modal
          opened={confirmLeave}
          onClose={() => {
            setConfirmLeave(false);
            unenrol.reset();
          }}
          title="Unenrol from this course?"
          centered
          closeButtonProps={{ 'aria-label': 'Close' }}
        >
          <Stack gap="md">
            <Text size="sm">
              {`You leave ${course.title}. Your progress and work are kept if you enrol again.`}
            </Text>
            {unenrol.isError && <ErrorAlert error={unenrol.error} />}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirmLeave(false)}>
                Cancel
              </Button>
              <Button
                color="red.9"
                loading={unenrol.isPending}
                onClick={() =>
                  unenrol.mutate(undefined, {
                    onSuccess: () => {
                      setConfirmLeave(false);
                      notifications.show({
                        title: 'Unenrolled',
                        message: `You left ${course.title}.`,
                      });
                    },
                  })
                }
              >
                Unenrol
              </Button>
            </Group>
          </Stack>
        </Modal>
      </Stack>
    );
  }

  if (!viewer.canEnrol) {
    return viewer.enrolBlockedReason ? (
      <Text size="sm" c="dimmed">
        {viewer.enrolBlockedReason}
      </Text>
    ) : null;
  }

  const withKey = course.enrolmentMode === 'key';
  return (
    <Stack gap="xs">
      <Group>
        <Button
          loading={!withKey && enrol.isPending}
          onClick={() => (withKey ? setKeyOpen(true) : doEnrol({}))}
        >
          {withKey ? 'Enrol with key' : 'Enrol'}
        </Button>
      </Group>
      {!withKey && enrol.isError && (
        <Alert color="red" role="alert">
          {errorMessage(enrol.error)}
        </Alert>
      )}
      <Modal
        opened={keyOpen}
        onClose={() => {
          setKeyOpen(false);
          enrol.reset();
        }}
        title="Enrol with the key"
        centered
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            doEnrol({ key });
          }}
        >
          <Stack gap="md">
            <Text size="sm">The course's teachers give out its enrolment key.</Text>
            <PasswordInput
              label="Enrolment key"
              required
              maxLength={100}
              value={key}
              onChange={(event) => setKey(event.currentTarget.value)}
              data-autofocus
            />
            {enrol.isError && <ErrorAlert error={enrol.error} />}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setKeyOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" loading={enrol.isPending} disabled={key.trim() === ''}>
                Enrol
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Stack>
  );
}
