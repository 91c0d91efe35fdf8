import { describe, expect, it } from 'vitest';
import { ACCOUNT_REFUSALS, SSO_ERROR_MESSAGES, ssoErrorMessage } from './sign-in-texts';

describe('single sign-on error codes', () => {
  it('gives each code its fixed text', () => {
    expect(ssoErrorMessage('expired_state')).toBe(
      'This sign-in link is no longer valid. Please start again.',
    );
    expect(ssoErrorMessage('account_conflict')).toBe(ACCOUNT_REFUSALS.conflict);
    expect(ssoErrorMessage('dev_mode')).toBe('Authentication is disabled in development mode');
  });

  it('answers anything else, inherited names included, with the generic text', () => {
    for (const code of ['', 'Call +1 555 0100', '__proto__', 'constructor', 'toString']) {
      expect(ssoErrorMessage(code)).toBe(SSO_ERROR_MESSAGES.failed);
    }
  });
});
