import { CONTEXT_ROLES, type ContextRoleId } from '@learning-hub/core';
import {
  ActionIcon,
  Button,
  Fieldset,
  Group,
  MultiSelect,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useDepartmentChoices } from '../../departments/api/departments-api';
import { useRoles } from '../api/roles-api';
import {
  newContextRule,
  newRoleRule,
  type ContextRuleValues,
  type ProviderFormValues,
} from '../utils/provider-form';
import { rolesFor } from './assignment-form-modal';
import { CourseSelect } from './course-select';

type Form = UseFormReturnType<ProviderFormValues>;

const GROUP_WORD = { ldap: 'directory group', sso: 'group claim value' } as const;

/**
 * Group → role and group → context-role rules, the default role, and whether only people in a
 * mapped group may sign in.
 */
export function MappingFields({ form, method }: { form: Form; method: 'ldap' | 'sso' }) {
  const roles = useRoles();
  const roleOptions = (roles.data ?? []).map((r) => ({ value: r.id, label: r.displayName }));
  const mapping = form.getValues().mapping;
  const groupLabel = method === 'ldap' ? 'Directory group' : 'Group';

  return (
    <>
      <Fieldset legend="Roles">
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {`A person in a ${GROUP_WORD[method]} gets its role; with several, the highest-priority role wins. Nobody matched: the default role.`}
          </Text>
          {mapping.roleMapping.length === 0 && (
            <Text size="sm">No role rules: everyone gets the default role.</Text>
          )}
          {mapping.roleMapping.map((rule, index) => (
            <Group key={rule.key} gap="sm" align="flex-start" wrap="nowrap">
              <TextInput
                label={groupLabel}
                style={{ flex: 2 }}
                spellCheck={false}
                {...form.getInputProps(`mapping.roleMapping.${index}.group`)}
              />
              <Select
                label="Role"
                style={{ flex: 1 }}
                data={roleOptions}
                allowDeselect={false}
                {...form.getInputProps(`mapping.roleMapping.${index}.role`)}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                mt={24}
                aria-label={`Remove role rule ${index + 1}`}
                onClick={() => form.removeListItem('mapping.roleMapping', index)}
              >
                <IconTrash size={16} aria-hidden="true" />
              </ActionIcon>
            </Group>
          ))}
          <Group>
            <Button
              size="xs"
              variant="default"
              leftSection={<IconPlus size={14} aria-hidden="true" />}
              onClick={() => form.insertListItem('mapping.roleMapping', newRoleRule())}
            >
              Add role rule
            </Button>
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label="Default role"
              description="For people no role rule matches."
              data={roleOptions}
              withAsterisk
              allowDeselect={false}
              {...form.getInputProps('mapping.defaultRole')}
            />
            <Switch
              mt={{ base: 0, sm: 28 }}
              label="Only people in a mapped group may sign in"
              {...form.getInputProps('mapping.requireMappedGroup', { type: 'checkbox' })}
            />
          </SimpleGrid>
        </Stack>
      </Fieldset>
      <Fieldset legend="Context roles">
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            A person in the group gets these roles in a course or department, refreshed at every
            sign-in.
          </Text>
          {mapping.contextMapping.length === 0 && <Text size="sm">No context rules.</Text>}
          {mapping.contextMapping.map((rule, index) => (
            <ContextRuleRow
              key={rule.key}
              form={form}
              rule={rule}
              index={index}
              groupLabel={groupLabel}
            />
          ))}
          <Group>
            <Button
              size="xs"
              variant="default"
              leftSection={<IconPlus size={14} aria-hidden="true" />}
              onClick={() => form.insertListItem('mapping.contextMapping', newContextRule())}
            >
              Add context rule
            </Button>
          </Group>
        </Stack>
      </Fieldset>
    </>
  );
}

function ContextRuleRow({
  form,
  rule,
  index,
  groupLabel,
}: {
  form: Form;
  rule: ContextRuleValues;
  index: number;
  groupLabel: string;
}) {
  const departments = useDepartmentChoices();
  const path = `mapping.contextMapping.${index}` as const;
  const roleOptions = rolesFor(rule.type).map((id: ContextRoleId) => ({
    value: id,
    label: CONTEXT_ROLES[id].displayName,
  }));
  const courseProps = form.getInputProps(`${path}.courseId`);
  return (
    <Paper withBorder p="sm" role="group" aria-label={`Context rule ${index + 1}`}>
      <Stack gap="sm">
        <Group gap="sm" align="flex-start" wrap="nowrap">
          <TextInput
            label={groupLabel}
            style={{ flex: 1 }}
            spellCheck={false}
            {...form.getInputProps(`${path}.group`)}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500} component="span" id={`${rule.key}-type`}>
              In a
            </Text>
            <SegmentedControl
              aria-labelledby={`${rule.key}-type`}
              data={[
                { value: 'department', label: 'Department' },
                { value: 'course', label: 'Course' },
              ]}
              value={rule.type}
              onChange={(value) => {
                form.setFieldValue(`${path}.type`, value as ContextRuleValues['type']);
                // Context roles belong to one context type.
                form.setFieldValue(`${path}.roles`, []);
              }}
            />
          </Stack>
          <ActionIcon
            variant="subtle"
            color="red"
            size="lg"
            mt={24}
            aria-label={`Remove context rule ${index + 1}`}
            onClick={() => form.removeListItem('mapping.contextMapping', index)}
          >
            <IconTrash size={16} aria-hidden="true" />
          </ActionIcon>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {rule.type === 'course' ? (
            <CourseSelect
              label="Course"
              placeholder="Search courses"
              withAsterisk
              value={rule.courseId}
              valueLabel={rule.courseId ?? undefined}
              error={courseProps.error as string | undefined}
              onChange={(id) => form.setFieldValue(`${path}.courseId`, id)}
            />
          ) : (
            <Select
              label="Department"
              withAsterisk
              searchable
              data={(departments.data ?? []).map((d) => ({ value: d.id, label: d.name }))}
              nothingFoundMessage="No departments found"
              {...form.getInputProps(`${path}.departmentId`)}
            />
          )}
          <MultiSelect
            label="Context roles"
            withAsterisk
            data={roleOptions}
            {...form.getInputProps(`${path}.roles`)}
          />
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
