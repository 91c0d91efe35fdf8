import type { CourseDetail } from '@learning-hub/core';
import { Alert, Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { errorMessage, formatDate } from '../course-format';
import { useEnrol, useUnenrol } from '../api/courses-api';
import { ConfirmModal } from '../../../components/confirm-modal';
import { FormActions, FormModal, FormStack } from '../../../components/form-modal';

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
        <ConfirmModal
          opened={confirmLeave}
          title="Unenrol from this course?"
          confirmLabel="Unenrol"
          danger
          busy={unenrol.isPending}
          error={unenrol.error}
          onClose={() => {
            setConfirmLeave(false);
            unenrol.reset();
          }}
          onConfirm={() =>
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
          {`You leave ${course.title}. Your progress and work are kept if you enrol again.`}
        </ConfirmModal>
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
      <FormModal
        opened={keyOpen}
        onClose={() => {
          setKeyOpen(false);
          enrol.reset();
        }}
        title="Enrol with the key"
        centered
      >
        <FormStack onSubmit={() => doEnrol({ key })}>
          <Text size="sm">The course's teachers give out its enrolment key.</Text>
          <PasswordInput
            label="Enrolment key"
            required
            maxLength={100}
            value={key}
            onChange={(event) => setKey(event.currentTarget.value)}
            data-autofocus
          />
          <FormActions
            submitLabel="Enrol"
            mutation={enrol}
            disabled={key.trim() === ''}
            onCancel={() => setKeyOpen(false)}
          />
        </FormStack>
      </FormModal>
    </Stack>
  );
}
