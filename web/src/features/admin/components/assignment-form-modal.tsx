import {
  ALL_PERMISSION_IDS,
  CONTEXT_ROLE_IDS,
  CONTEXT_ROLES,
  contextKey,
  type AccessContext,
  type AssignmentInput,
  type AssignmentView,
  type ContextRoleId,
  type PermissionId,
} from '@learning-hub/core';
import {
  Alert,
  Checkbox,
  Input,
  MultiSelect,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { FormActions, FormModal, FormStack } from '../../../components/form-modal';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { useDepartmentChoices } from '../../departments/api/departments-api';
import { useSaveAssignment } from '../api/users-api';
import { fromLocalInput, toLocalInput } from '../utils/dates';
import { errorMessage, notifySuccess } from '../utils/notify';
import { permissionOptions } from '../utils/permissions';
import { CourseSelect } from './course-select';
import { PermissionOptionRow } from './permission-option';
import type { GrantRules } from './use-grant-rules';

type PickableType = 'course' | 'department' | 'custom';

interface AssignmentValues {
  contextType: PickableType;
  courseId: string | null;
  departmentId: string | null;
  customType: string;
  customId: string;
  roles: string[];
  directPermissions: string[];
  /** datetime-local value; empty for no expiry. */
  expiresAt: string;
}

export const EXPIRY_IN_PAST = 'The expiry must be in the future';
export const NOTHING_GIVEN = 'Give at least one role or permission';
const CUSTOM_PART = /^[\w.-]+$/;

/** A context of the type with no id yet: what may be given anywhere of that type. */
function anyOf(type: PickableType): AccessContext {
  switch (type) {
    case 'course':
      return { type, courseId: '' };
    case 'department':
      return { type, departmentId: '' };
    case 'custom':
      return { type, contextType: '', contextId: '' };
  }
}

/** Context roles that can be held in a context type (none in a custom context). */
export function rolesFor(type: AccessContext['type']): ContextRoleId[] {
  return CONTEXT_ROLE_IDS.filter((id) => CONTEXT_ROLES[id].context.type === type);
}

function contextOf(values: AssignmentValues): AccessContext | null {
  switch (values.contextType) {
    case 'course':
      return values.courseId ? { type: 'course', courseId: values.courseId } : null;
    case 'department':
      return values.departmentId ? { type: 'department', departmentId: values.departmentId } : null;
    case 'custom':
      return values.customType && values.customId
        ? { type: 'custom', contextType: values.customType, contextId: values.customId }
        : null;
  }
}

function initialValues(initial: AssignmentView | null): AssignmentValues {
  const c = initial?.context;
  return {
    contextType: c && c.type !== 'system' && c.type !== 'user' ? c.type : 'course',
    courseId: c?.type === 'course' ? c.courseId : null,
    departmentId: c?.type === 'department' ? c.departmentId : null,
    customType: c?.type === 'custom' ? c.contextType : '',
    customId: c?.type === 'custom' ? c.contextId : '',
    roles: [...(initial?.roles ?? [])],
    directPermissions: [...(initial?.directPermissions ?? [])],
    expiresAt: toLocalInput(initial?.expiresAt),
  };
}

export interface AssignmentFormModalProps {
  userId: string;
  userName: string;
  opened: boolean;
  onClose(): void;
  /** The assignment to edit; null to create one. */
  initial: AssignmentView | null;
  /** The user's assignments, to say when saving replaces one. */
  existing: readonly AssignmentView[];
  /** What the signed-in user may give this user (core's grant rules). */
  rules: GrantRules;
}

/** Creates or replaces the user's assignment for one context (PUT …/assignments). */
export function AssignmentFormModal(props: AssignmentFormModalProps) {
  // A fresh form (and so fresh values) each time the dialog opens for an assignment.
  const formKey = props.opened ? (props.initial?.contextKey ?? 'new') : 'closed';
  return (
    <FormModal
      opened={props.opened}
      onClose={props.onClose}
      title={
        props.initial
          ? `Edit assignment: ${props.initial.contextLabel}`
          : 'Assign access in a context'
      }
      size="lg"
      centered
    >
      {<AssignmentForm key={formKey} {...props} />}
    </FormModal>
  );
}

function AssignmentForm({
  userId,
  userName,
  onClose,
  initial,
  existing,
  rules,
}: AssignmentFormModalProps) {
  const save = useSaveAssignment(userId);
  const departments = useDepartmentChoices();
  const [serverError, setServerError] = useState<string | null>(null);
  const narrow = useMediaQuery('(max-width: 30em)');
  const editing = initial !== null;
  const fixedContext = initial?.context ?? null;

  const form = useForm<AssignmentValues>({
    initialValues: initialValues(initial),
    validate: (values) => {
      const errors: Record<string, string> = {};
      if (!fixedContext) {
        if (values.contextType === 'course' && !values.courseId)
          errors.courseId = 'Choose a course';
        if (values.contextType === 'department' && !values.departmentId) {
          errors.departmentId = 'Choose a department';
        }
        if (values.contextType === 'custom') {
          if (!CUSTOM_PART.test(values.customType)) {
            errors.customType = 'Letters, digits, dots, hyphens or underscores';
          }
          if (!CUSTOM_PART.test(values.customId)) {
            errors.customId = 'Letters, digits, dots, hyphens or underscores';
          }
        }
      }
      if (values.roles.length + values.directPermissions.length === 0) errors.roles = NOTHING_GIVEN;
      const target = fixedContext ?? contextOf(values);
      if (target && !errors.roles) {
        const previous =
          initial ??
          existing.find((a) => !a.derived && a.contextKey === contextKey(target)) ??
          null;
        const refused = rules.replaceDenial(previous, {
          context: target,
          roles: values.roles,
          directPermissions: values.directPermissions,
        });
        if (refused) errors.roles = refused;
      }
      if (values.expiresAt) {
        const at = fromLocalInput(values.expiresAt);
        if (!at) errors.expiresAt = 'Enter a date and time';
        else if (Date.parse(at) <= Date.now()) errors.expiresAt = EXPIRY_IN_PAST;
      }
      return errors;
    },
  });

  const values = form.getValues();
  const context = fixedContext ?? contextOf(values);
  const type = fixedContext?.type ?? values.contextType;
  const replaces =
    !editing && context
      ? existing.find((a) => !a.derived && a.contextKey === contextKey(context))
      : undefined;

  const submit = async (v: AssignmentValues) => {
    const target = fixedContext ?? contextOf(v);
    if (!target) return;
    setServerError(null);
    const input: AssignmentInput = {
      context: target,
      roles: v.roles as ContextRoleId[],
      directPermissions: v.directPermissions as PermissionId[],
      expiresAt: fromLocalInput(v.expiresAt),
    };
    try {
      const result = await save.mutateAsync(input);
      notifySuccess(
        result.replaced ? 'Assignment replaced' : 'Assignment created',
        `${userName}'s access in ${result.contextKey} was saved.`,
      );
      onClose();
    } catch (error) {
      setServerError(errorMessage(error));
    }
  };

  // Only what the signed-in user may give here (before a context is picked: of its type anywhere).
  const where = context ?? anyOf(type as PickableType);
  const givableRoles = rules.contextRoles(where);
  const givable = rules.contextPermissions(where);
  const roleChoices = rolesFor(type).filter((id) => givableRoles.has(id));
  const notGivable = ALL_PERMISSION_IDS.filter(
    (p) => !givable.has(p) && !values.directPermissions.includes(p),
  );

  return (
    <FormStack onSubmit={form.onSubmit((v) => void submit(v))}>
      {serverError && (
        <Alert color="red" role="alert" title="Not saved">
          {serverError}
        </Alert>
      )}
      {fixedContext ? (
        <TextInput
          label="Context"
          value={`${initial?.contextLabel ?? ''} (${initial?.contextKey ?? ''})`}
          readOnly
          variant="filled"
        />
      ) : (
        <>
          <Stack gap={4}>
            <Input.Label id="context-type-label">Context type</Input.Label>
            <SegmentedControl
              aria-labelledby="context-type-label"
              orientation={narrow ? 'vertical' : 'horizontal'}
              data={[
                { value: 'course', label: 'A course' },
                { value: 'department', label: 'A department' },
                { value: 'custom', label: 'Custom context' },
              ]}
              {...form.getInputProps('contextType')}
              onChange={(next) => {
                const nextType = next as PickableType;
                form.setFieldValue('contextType', nextType);
                const allowed = new Set<string>(rolesFor(nextType));
                form.setFieldValue(
                  'roles',
                  form.getValues().roles.filter((r) => allowed.has(r)),
                );
              }}
            />
          </Stack>
          {values.contextType === 'course' && (
            <CourseSelect
              label="Course"
              placeholder="Search courses"
              withAsterisk
              value={values.courseId}
              onChange={(id) => form.setFieldValue('courseId', id)}
              error={form.errors.courseId}
            />
          )}
          {values.contextType === 'department' && (
            <Select
              label="Department"
              placeholder="Choose a department"
              withAsterisk
              searchable
              data={(departments.data ?? []).map((d) => ({ value: d.id, label: d.name }))}
              {...form.getInputProps('departmentId')}
            />
          )}
          {values.contextType === 'custom' && (
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label="Context type"
                placeholder="e.g. region"
                withAsterisk
                {...form.getInputProps('customType')}
              />
              <TextInput
                label="Context id"
                placeholder="e.g. north"
                withAsterisk
                {...form.getInputProps('customId')}
              />
            </SimpleGrid>
          )}
        </>
      )}
      {replaces && (
        <Alert color="yellow" variant="light">
          {`${userName} already has an assignment in ${replaces.contextLabel}; saving replaces it.`}
        </Alert>
      )}
      {roleChoices.length > 0 ? (
        <Checkbox.Group
          label="Context roles"
          description={`Roles held only in this ${type}.`}
          {...form.getInputProps('roles')}
        >
          <Stack gap="xs" mt="xs">
            {roleChoices.map((id) => (
              <Checkbox
                key={id}
                value={id}
                label={CONTEXT_ROLES[id].displayName}
                description={CONTEXT_ROLES[id].description}
              />
            ))}
          </Stack>
        </Checkbox.Group>
      ) : (
        <Text size="sm" c="dimmed">
          {rolesFor(type).length > 0
            ? `You cannot give any ${type} role here; give permissions directly.`
            : 'Context roles are held in a course or a department; give permissions directly here.'}
          {form.errors.roles ? ` ${form.errors.roles}.` : ''}
        </Text>
      )}
      <MultiSelect
        label="Direct permissions in this context"
        placeholder="Search the catalogue"
        searchable
        clearable
        data={permissionOptions({ exclude: notGivable })}
        renderOption={({ option }) => <PermissionOptionRow option={option} />}
        maxDropdownHeight={280}
        nothingFoundMessage="No such permission"
        {...form.getInputProps('directPermissions')}
      />
      <TextInput
        type="datetime-local"
        label="Expires"
        description="Optional. After this moment the assignment is ignored. Leave empty for no expiry."
        {...form.getInputProps('expiresAt')}
      />
      <FormActions
        submitLabel={editing ? 'Save assignment' : 'Assign'}
        busy={save.isPending}
        onCancel={onClose}
      />
    </FormStack>
  );
}
