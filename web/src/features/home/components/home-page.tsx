import { NAV_ITEMS, ROUTES, findRoute, type RouteDef } from '@learning-hub/core';
import { Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link, generatePath } from 'react-router';
import { useAuth } from '../../../lib/auth/auth-context';
import { useCan, type Can } from '../../../lib/auth/use-can';

export interface HomeLink {
  label: string;
  path: string;
  description?: string;
  built: boolean;
}

const DEPARTMENT_ROUTE = '/departments/:deptName';

/**
 * What a user may open, computed with core's checks: the nav items they see whose route they
 * pass, their own department page, then every other page of the route table they pass.
 */
export function homeLinks(can: Can, departmentId: string | null, department: string | null) {
  const routeAllowed = (route: RouteDef | undefined, params = {}) =>
    !route || can.route(route, params).allowed;

  const menu: HomeLink[] = NAV_ITEMS.filter(
    (item) => item.path !== '/' && can.navItem(item) && routeAllowed(findRoute(item.path)),
  ).map((item) => ({
    label: item.label,
    path: item.path,
    built: findRoute(item.path)?.built ?? true,
  }));

  const deptRoute = findRoute(DEPARTMENT_ROUTE);
  if (departmentId && deptRoute && routeAllowed(deptRoute, { deptName: departmentId })) {
    menu.push({
      label: department ?? departmentId,
      path: generatePath(DEPARTMENT_ROUTE, { deptName: departmentId }),
      description: 'Your department',
      built: deptRoute.built,
    });
  }

  const taken = new Set([...menu.map((link) => link.path), ...NAV_ITEMS.map((i) => i.path)]);
  const titles = new Set<string>();
  const more: HomeLink[] = [];
  for (const route of ROUTES) {
    if (route.access !== 'authenticated' || route.path.includes(':') || taken.has(route.path)) {
      continue;
    }
    if (titles.has(route.title) || !can.route(route).allowed) continue;
    titles.add(route.title);
    more.push({ label: route.title, path: route.path, built: route.built });
  }
  return { menu, more };
}

function LinkCards({ links }: { links: HomeLink[] }) {
  return (
    <SimpleGrid
      cols={{ base: 1, sm: 2, md: 3 }}
      component="ul"
      style={{ listStyle: 'none', padding: 0 }}
    >
      {links.map((link) => (
        <li key={link.path}>
          <Card component={Link} to={link.path} withBorder padding="md" h="100%">
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Text fw={600}>{link.label}</Text>
              {!link.built && (
                <Badge variant="light" color="gray" size="sm" tt="none">
                  Not available yet
                </Badge>
              )}
            </Group>
            <Text size="sm" c="dimmed">
              {link.description ?? link.path}
            </Text>
          </Card>
        </li>
      ))}
    </SimpleGrid>
  );
}

/** / : a greeting and the pages this user may open. */
export function HomePage() {
  const { user } = useAuth();
  const can = useCan();
  if (!user) return null;
  const { menu, more } = homeLinks(can, user.departmentId, user.department);
  return (
    <Stack gap="xl">
      <Title order={1}>{`Welcome, ${user.firstname}`}</Title>
      {menu.length > 0 && (
        <Stack gap="sm" component="section" aria-labelledby="home-menu">
          <Title order={2} size="h3" id="home-menu">
            Your learning hub
          </Title>
          <LinkCards links={menu} />
        </Stack>
      )}
      {more.length > 0 && (
        <Stack gap="sm" component="section" aria-labelledby="home-more">
          <Title order={2} size="h3" id="home-more">
            More pages
          </Title>
          <LinkCards links={more} />
        </Stack>
      )}
    </Stack>
  );
}
