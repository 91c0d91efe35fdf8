/**
 * A person's own settings (`/settings`, docs/settings.md): read them with what the page may offer,
 * and save them whole. Both need user.view_profile, the page's own permission: the settings are
 * one's own preferences, and whoever may open the page may keep what they choose there.
 */
import {
  AppError,
  SETTINGS_MESSAGES,
  startPageChoices,
  startPageRoute,
  UserSettingsSchema,
  UserSettingsUpdateSchema,
  UserSettingsViewSchema,
  coerceUserSettings,
  type AccessSubject,
  type UserSettings,
} from '@learning-hub/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { UserRecord } from '../../platform/auth/user-repository';
import type { Db } from '../../platform/db';
import { currentUser } from '../../platform/http/access';
import {
  readUserSettings,
  writeUserSettings,
} from '../../platform/settings/user-settings-repository';

const ACCESS = { permissions: ['user.view_profile' as const] };

/**
 * The zone's canonical IANA name, or null when this server's Intl does not know it. `utc` and
 * `Asia/Calcutta` are known, and stored as `UTC` and the name Intl gives.
 */
export function canonicalTimeZone(zone: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

function refused(path: string, message: string): AppError {
  return new AppError('VALIDATION_ERROR', message, { issues: [{ path: `body.${path}`, message }] });
}

const settingsRoutes: FastifyPluginAsyncZod<{
  db: Db;
  now: () => number;
  emailAvailable: boolean;
}> = async (app, { db, now, emailAvailable }) => {
  /** The user's permissions as the access guard loaded them for this request. */
  const subjectOf = (user: UserRecord): AccessSubject => {
    const subject = app.access.engine.subjectOf(user.id);
    if (!subject) throw new Error(`The permissions of ${user.id} are not loaded`);
    return subject;
  };
  const checkOptions = () => ({ roles: app.access.roles, now: now() });

  /**
   * The settings as the person may use them now: a start page they may no longer open (a role
   * taken away since they chose it) reads as the start page, so that saving anything else
   * never trips over it.
   */
  const effective = (user: UserRecord, settings: UserSettings): UserSettings => {
    const choices = startPageChoices(subjectOf(user), checkOptions());
    return choices.some((c) => c.path === settings.startPage)
      ? settings
      : { ...settings, startPage: '/' };
  };

  app.get(
    '/api/settings',
    {
      config: { access: ACCESS },
      schema: {
        operationId: 'getOwnSettings',
        tags: ['settings'],
        summary: 'One’s own settings, with the start pages one may choose',
        response: { 200: UserSettingsViewSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const settings = effective(user, await readUserSettings(db, user.id));
      return {
        settings,
        emailAvailable,
        startPages: startPageChoices(subjectOf(user), checkOptions()),
      };
    },
  );

  app.put(
    '/api/settings',
    {
      config: {
        access: ACCESS,
        responses: {
          400: [
            SETTINGS_MESSAGES.unknownKind('<kind>'),
            SETTINGS_MESSAGES.required('account.new-sign-in'),
            SETTINGS_MESSAGES.badTimeZone('<zone>'),
            SETTINGS_MESSAGES.badStartPage('<path>'),
            SETTINGS_MESSAGES.startPageDenied('<page>'),
            SETTINGS_MESSAGES.unknownField('<field>'),
          ],
        },
      },
      schema: {
        operationId: 'updateOwnSettings',
        tags: ['settings'],
        summary: 'Save one’s own settings (the whole object)',
        description:
          'The whole settings: every field is required, and a field the server does not know ' +
          'is refused. `notifications` may leave kinds out (they keep their defaults). The time ' +
          'zone must be one the server’s Intl knows (stored under its canonical name), and the ' +
          'start page one the caller may open. Answers the settings as stored.',
        body: UserSettingsUpdateSchema,
        response: { 200: UserSettingsSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const body = request.body;
      let timeZone: string | null = null;
      if (body.timeZone !== null) {
        timeZone = canonicalTimeZone(body.timeZone);
        if (timeZone === null) {
          throw refused('timeZone', SETTINGS_MESSAGES.badTimeZone(body.timeZone));
        }
      }
      const route = startPageRoute(body.startPage);
      const choices = startPageChoices(subjectOf(user), checkOptions());
      if (!route) throw refused('startPage', SETTINGS_MESSAGES.badStartPage(body.startPage));
      if (!choices.some((c) => c.path === route.path)) {
        throw refused('startPage', SETTINGS_MESSAGES.startPageDenied(route.title));
      }
      const settings = coerceUserSettings({ ...body, timeZone });
      await writeUserSettings(db, user.id, settings, new Date(now()).toISOString());
      const saved = effective(user, await readUserSettings(db, user.id));
      // The person's other tabs and devices apply them at once (docs/notifications.md).
      app.live.toUser(user.id, 'settings', saved);
      return saved;
    },
  );
};

export default settingsRoutes;
