import type { PublicUser } from '@learning-hub/core';
import {
  ActionIcon,
  AppShell,
  Badge,
  Burger,
  Button,
  Group,
  LoadingOverlay,
  Text,
  useComputedColorScheme,
} from '@mantine/core';
import { useDisclosure, useHotkeys } from '@mantine/hooks';
import { IconMoon, IconSchool, IconSearch, IconSun } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, Outlet, ScrollRestoration, useLocation, useNavigation } from 'react-router';
import { useAuth } from '../../lib/auth/auth-context';
import { useAuthConfig } from '../../lib/auth/auth-config';
import { AccessNotice } from '../access-notice';
import { useLiveConnection } from '../../lib/live/use-live';
import {
  announcementsQuery,
  BANNER_ANNOUNCEMENTS,
} from '../../features/announcements/api/announcements-api';
import { useChooseColorScheme } from '../settings-applier';
import { AvatarButton } from './avatar-button';
import { LiveStatusNotice, NotificationBell } from './notification-bell';

const NAV_MENU_ID = 'main-navigation';

// The drawer and the account menu load when they are first needed, not with the first page
// (docs/front-end.md).
const loadNavMenu = () => import('./nav-menu');
const NavMenu = lazy(() => loadNavMenu().then((m) => ({ default: m.NavMenu })));
const loadAvatarMenu = () => import('./avatar-menu');
const AvatarMenu = lazy(() => loadAvatarMenu().then((m) => ({ default: m.AvatarMenu })));
// Search (Spotlight and its styles) loads at its first opening: the button or Ctrl+K / ⌘K.
const loadSearch = () => import('./search-spotlight');
const SearchSpotlight = lazy(() => loadSearch().then((m) => ({ default: m.SearchSpotlight })));
// The urgent announcements' bar (and the announcements' live refresh), after the first page.
const AnnouncementBanner = lazy(() =>
  import('../../features/announcements/components/announcement-banner').then((m) => ({
    default: m.AnnouncementBanner,
  })),
);

/**
 * The avatar, and its menu from the first press on: until then a plain button that looks and is
 * named the same (with the closed menu's `aria-haspopup` and `aria-expanded`). The menu (Mantine's
 * Menu, Popover and floating-ui: a dozen files) is loaded only then, its code starting when the
 * pointer comes near or the button gets focus, and mounted open. Mounted with the page, it cost
 * the start page those requests and renders of a popover nobody had opened (docs/front-end.md).
 */
function AccountMenu({ user }: { user: PublicUser }) {
  const [wanted, setWanted] = useState(false);
  const closed = { user, 'aria-haspopup': 'menu', 'aria-expanded': false } as const;
  if (!wanted) {
    return (
      <AvatarButton
        {...closed}
        onClick={() => setWanted(true)}
        onPointerEnter={() => void loadAvatarMenu()}
        onFocus={() => void loadAvatarMenu()}
      />
    );
  }
  return (
    <Suspense fallback={<AvatarButton {...closed} />}>
      <AvatarMenu user={user} defaultOpened />
    </Suspense>
  );
}

/**
 * Light or dark at a press: the person's colour scheme setting (saved to their account, so it
 * follows them; in this browser alone when signed out), the same one /settings changes.
 */
function ColorSchemeToggle() {
  const choose = useChooseColorScheme();
  const computed = useComputedColorScheme('light', { getInitialValueInEffect: true });
  const next = computed === 'dark' ? 'light' : 'dark';
  return (
    <ActionIcon
      variant="subtle"
      color="gray"
      size="lg"
      // On a phone the header has no room for it: the scheme is in Settings.
      visibleFrom="xs"
      onClick={() => choose(next)}
      aria-label={`Switch to ${next} colour scheme`}
    >
      {computed === 'dark' ? (
        <IconSun size={20} aria-hidden="true" />
      ) : (
        <IconMoon size={20} aria-hidden="true" />
      )}
    </ActionIcon>
  );
}

/** Opens search (loaded at the first opening) from the header's button or Ctrl+K / ⌘K. */
function SearchButton({ onOpen }: { onOpen(): void }) {
  // Not from a text field or the rich-text editor, which have their own Ctrl+K.
  useHotkeys([['mod+K', onOpen]]);
  return (
    <ActionIcon
      variant="subtle"
      color="gray"
      size="lg"
      onClick={onOpen}
      onPointerEnter={() => void loadSearch()}
      onFocus={() => void loadSearch()}
      aria-label="Search (Ctrl+K)"
      aria-keyshortcuts="Control+K Meta+K"
    >
      <IconSearch size={20} aria-hidden="true" />
    </ActionIcon>
  );
}

/** The app shell (docs/architecture.md): header with logo, hamburger and avatar menus; content. */
export function AppLayout() {
  const auth = useAuth();
  const { config, method } = useAuthConfig();
  const [navOpened, nav] = useDisclosure(false);
  // Mounted at the first opening, then kept (so that it can animate closing and opening again).
  const [navMounted, setNavMounted] = useState(false);
  const navigation = useNavigation();
  const onLoginPage = useLocation().pathname === '/login';
  const devMode = config.devMode || method === 'disabled';
  const [searchOpened, search] = useDisclosure(false);
  const [searchMounted, setSearchMounted] = useState(false);
  const signedIn = !!auth.user && auth.isAuthenticated;
  // The live channel (notifications, presence): open while signed in; when the server ends the
  // sign-in, the session is checked again (and cleared).
  useLiveConnection(signedIn && !auth.requiresPasswordChange, () => void auth.refresh());
  // The banner's list is asked for at once, beside its chunk (docs/front-end.md).
  const queryClient = useQueryClient();
  const wantsBanner = signedIn && !auth.requiresPasswordChange;
  useEffect(() => {
    if (wantsBanner) void queryClient.prefetchQuery(announcementsQuery(BANNER_ANNOUNCEMENTS));
  }, [wantsBanner, queryClient]);
  const openSearch = () => {
    setSearchMounted(true);
    search.open();
  };

  return (
    <AppShell header={{ height: 60 }} padding="md">
      {/* A page opens at its top; Back and Forward return to where the reader was. */}
      <ScrollRestoration />
      <a className="skip-link" href="#main-content">
        Skip to main content
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={navOpened}
              onClick={() => {
                setNavMounted(true);
                nav.toggle();
              }}
              // A head start on the drawer's code when a click is likely.
              onPointerEnter={() => void loadNavMenu()}
              onFocus={() => void loadNavMenu()}
              size="sm"
              aria-label="Open navigation"
              aria-expanded={navOpened}
              aria-controls={NAV_MENU_ID}
            />
            <Link to="/" className="logo-link" aria-label="Learning Hub home">
              <IconSchool
                size={28}
                stroke={1.6}
                color="var(--mantine-primary-color-filled)"
                aria-hidden="true"
              />
              <Text fw={700} size="lg" component="span">
                Learning Hub
              </Text>
            </Link>
          </Group>
          <Group gap="sm" wrap="nowrap">
            {devMode && (
              <Badge color="yellow" variant="filled" autoContrast tt="none">
                Dev Mode
              </Badge>
            )}
            {signedIn && <LiveStatusNotice />}
            {signedIn && <SearchButton onOpen={openSearch} />}
            {signedIn && <NotificationBell />}
            <ColorSchemeToggle />
            {auth.user && auth.isAuthenticated ? (
              <AccountMenu user={auth.user} />
            ) : (
              // Not on the sign-in page itself, where it would lead nowhere (docs/spec-readings.md).
              !onLoginPage && (
                <Button component={Link} to="/login" variant="light">
                  Login
                </Button>
              )
            )}
          </Group>
        </Group>
      </AppShell.Header>
      {signedIn && searchMounted && (
        <Suspense fallback={null}>
          <SearchSpotlight opened={searchOpened} onClose={search.close} />
        </Suspense>
      )}
      {navMounted && (
        <Suspense fallback={null}>
          <NavMenu id={NAV_MENU_ID} opened={navOpened} onClose={nav.close} />
        </Suspense>
      )}
      <AppShell.Main id="main-content" tabIndex={-1} className="main-content">
        <div className="page-region">
          <LoadingOverlay
            visible={navigation.state === 'loading'}
            zIndex={50}
            overlayProps={{ blur: 1 }}
            loaderProps={{ 'aria-label': 'Loading page' }}
          />
          <AccessNotice />
          <Outlet />
        </div>
        {wantsBanner && (
          <Suspense fallback={null}>
            <AnnouncementBanner />
          </Suspense>
        )}
      </AppShell.Main>
    </AppShell>
  );
}
