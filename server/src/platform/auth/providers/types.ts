/**
 * What every sign-in provider produces: a normalised identity, or a failure the route turns into
 * the right status and message. Providers also report their steps (for the admin's dry run at
 * /auth-test) through an optional trace.
 */
import {
  ACCOUNT_REFUSALS,
  type AccountRefusal,
  type ProviderMethod,
  type TestStep,
} from '@learning-hub/core';

/** A user as a provider describes them, before it is mapped to a Learning Hub account. */
export interface Identity {
  method: ProviderMethod;
  providerId: string;
  /** The provider's stable id for the user: directory DN, Moodle user id, OIDC subject. */
  externalId: string;
  username: string;
  email: string | null;
  firstname: string;
  lastname: string;
  /** Department name from the directory or a claim, if any. */
  department: string | null;
  /** Group names (directory groups, the groups claim). */
  groups: string[];
  ldapAttributes?: Record<string, string | string[]>;
  moodleId?: number;
  /** Moodle's userissiteadmin. */
  siteAdmin?: boolean;
  /** The claims received (single sign-on), shown in the dry run. */
  claims?: Record<string, unknown>;
}

export type FailureKind =
  /** Wrong username or password (or no such user): 401, the same answer whichever it was. */
  | 'invalid_credentials'
  /** The account exists but may not sign in here (deactivated, in no allowed group). */
  | 'forbidden'
  /** The provider could not be reached or answered nonsense: 502/503/504. */
  | 'unavailable'
  | 'timeout'
  /** The provider is set up wrongly (e.g. web services off): 502. */
  | 'misconfigured';

export class ProviderFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    /** Set when the account itself may not sign in (its text is ACCOUNT_REFUSALS[refusal]). */
    readonly refusal?: AccountRefusal,
  ) {
    super(message);
    this.name = 'ProviderFailure';
  }

  /** The account may not sign in here: 'forbidden', with the shared text of core. */
  static refused(refusal: AccountRefusal): ProviderFailure {
    return new ProviderFailure('forbidden', ACCOUNT_REFUSALS[refusal], refusal);
  }
}

/** Records the steps of a provider's work with their timing, for the dry-run page. */
export class Trace {
  readonly steps: TestStep[] = [];

  async step<T>(
    name: string,
    run: () => Promise<T>,
    describe?: (value: T) => string | null,
  ): Promise<T> {
    const start = performance.now();
    try {
      const value = await run();
      this.steps.push({
        name,
        ok: true,
        ms: Math.round((performance.now() - start) * 10) / 10,
        detail: describe ? describe(value) : null,
        error: null,
      });
      return value;
    } catch (error) {
      this.steps.push({
        name,
        ok: false,
        ms: Math.round((performance.now() - start) * 10) / 10,
        detail: null,
        error: error instanceof Error ? error.message : String(error),
      });
      throw error;
    }
  }

  note(name: string, detail: string, ok = true): void {
    this.steps.push({ name, ok, ms: 0, detail, error: null });
  }
}

/** A trace that records nothing, for real sign-ins. */
export const NO_TRACE = {
  step: <T>(_name: string, run: () => Promise<T>) => run(),
  note: () => undefined,
} as unknown as Trace;
