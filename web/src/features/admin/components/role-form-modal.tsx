import {
  CustomRoleCreateSchema,
  CustomRoleUpdateSchema,
  isAdminRole,
  RoleRegistry,
  type PermissionId,
  type Role,
} from '@learning-hub/core';
import {
  Alert,
  MultiSelect,
  NumberInput,
  Select,
  SimpleGrid,
  Textarea,
  TextInput,
} from '@mantine/core';
import { FormActions, FormModal, FormStack } from '../../../components/form-modal';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useCreateRole, useUpdateRole, type RoleWithUsage } from '../api/roles-api';
import { errorMessage, notifySuccess } from '../utils/notify';
import { permissionOptions } from '../utils/permissions';
import { PermissionOptionRow } from './permission-option';
import { fieldErrors, showServerErrors } from '../../../lib/form-errors';

interface RoleValues {
  id: string;
  displayName: string;
  description: string;
  inherits: string | null;
  permissions: string[];
  priority: number | string;
}

export const ROLE_ID_HINT = 'Lower-case letters, digits and hyphens, e.g. field-trainer';

/** The roles known, as core's registry (custom ones as the server sent them). */
export function registryOf(roles: readonly RoleWithUsage[]): RoleRegistry {
  return new RoleRegistry(
    roles
      .filter((r) => !r.isSystemRole)
      .map((r): Role => ({ ...r, permissions: r.permissions as PermissionId[] })),
  );
}

/** Roles a custom role may build on: student, instructor or a custom role not built on it. */
export function inheritableRoles(roles: readonly RoleWithUsage[], roleId: string | null) {
  const registry = registryOf(roles);
  return roles.filter(
    (r) =>
      !isAdminRole(r.id) &&
      r.id !== roleId &&
      !(roleId && registry.chain(r.id).some((ancestor) => ancestor.id === roleId)),
  );
}

function payload(values: RoleValues) {
  return {
    displayName: values.displayName,
    description: values.description,
    inherits: values.inherits ?? '',
    permissions: values.permissions,
    priority: typeof values.priority === 'number' ? values.priority : Number(values.priority),
  };
}

export interface RoleFormModalProps {
  opened: boolean;
  onClose(): void;
  /** The custom role to edit; null to create one. */
  role: RoleWithUsage | null;
  roles: readonly RoleWithUsage[];
}

/** Create or edit a custom role (id on create only; it never changes). */
export function RoleFormModal(props: RoleFormModalProps) {
  const key = props.opened ? (props.role?.id ?? 'new') : 'closed';
  return (
    <FormModal
      opened={props.opened}
      onClose={props.onClose}
      title={props.role ? `Edit role: ${props.role.displayName}` : 'Create a custom role'}
      size="lg"
      centered
    >
      {<RoleForm key={key} {...props} />}
    </FormModal>
  );
}

function RoleForm({ onClose, role, roles }: RoleFormModalProps) {
  const create = useCreateRole();
  const update = useUpdateRole();
  const [serverError, setServerError] = useState<string | null>(null);
  const editing = role !== null;

  const form = useForm<RoleValues>({
    initialValues: {
      id: role?.id ?? '',
      displayName: role?.displayName ?? '',
      description: role?.description ?? '',
      inherits: role?.inherits ?? 'student',
      permissions: [...(role?.permissions ?? [])],
      priority: role?.priority ?? 20,
    },
    validate: (values) => {
      const parsed = editing
        ? CustomRoleUpdateSchema.safeParse(payload(values))
        : CustomRoleCreateSchema.safeParse({ id: values.id, ...payload(values) });
      return parsed.success ? {} : fieldErrors(parsed.error);
    },
  });

  const values = form.getValues();
  const inherited = values.inherits ? registryOf(roles).permissionsOf(values.inherits) : [];
  const parents = inheritableRoles(roles, role?.id ?? null);

  const submit = async (v: RoleValues) => {
    setServerError(null);
    try {
      if (role) {
        const saved = await update.mutateAsync({
          roleId: role.id,
          role: CustomRoleUpdateSchema.parse(payload(v)),
        });
        notifySuccess('Role saved', `${saved.displayName} was updated.`);
      } else {
        const saved = await create.mutateAsync(
          CustomRoleCreateSchema.parse({ id: v.id, ...payload(v) }),
        );
        notifySuccess(
          'Role created',
          `${saved.displayName} (${saved.id}) can now be given to users.`,
        );
      }
      onClose();
    } catch (error) {
      if (!showServerErrors(form, error)) setServerError(errorMessage(error));
    }
  };

  return (
    <FormStack onSubmit={form.onSubmit((v) => void submit(v))}>
      {serverError && (
        <Alert color="red" role="alert" title="Not saved">
          {serverError}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Role id"
          description={editing ? 'The id never changes.' : ROLE_ID_HINT}
          withAsterisk={!editing}
          readOnly={editing}
          variant={editing ? 'filled' : 'default'}
          {...form.getInputProps('id')}
        />
        <TextInput label="Display name" withAsterisk {...form.getInputProps('displayName')} />
      </SimpleGrid>
      <Textarea label="Description" rows={3} {...form.getInputProps('description')} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label="Inherits from"
          description="Every permission of that role, and it counts as holding it."
          withAsterisk
          allowDeselect={false}
          data={parents.map((r) => ({ value: r.id, label: r.displayName }))}
          {...form.getInputProps('inherits')}
        />
        <NumberInput
          label="Priority"
          description="1 to 99; higher is more privileged."
          min={1}
          max={99}
          allowDecimal={false}
          {...form.getInputProps('priority')}
        />
      </SimpleGrid>
      <MultiSelect
        label="Permissions to add"
        description={`${inherited.length} permissions come from the inherited role already.`}
        placeholder="Search the catalogue"
        searchable
        clearable
        data={permissionOptions({ disabled: inherited, note: 'inherited' })}
        renderOption={({ option }) => <PermissionOptionRow option={option} />}
        maxDropdownHeight={300}
        nothingFoundMessage="No such permission"
        {...form.getInputProps('permissions')}
      />
      <FormActions
        submitLabel={editing ? 'Save role' : 'Create role'}
        busy={create.isPending || update.isPending}
        onCancel={onClose}
      />
    </FormStack>
  );
}
