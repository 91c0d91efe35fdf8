import { STORAGE_KEYS } from '@learning-hub/core';
import { describe, expect, it } from 'vitest';
import { getAuthMethod, setAuthMethod } from './auth-method';

describe('auth method', () => {
  it("defaults to 'local' when absent", () => {
    expect(getAuthMethod()).toBe('local');
    expect(getAuthMethod(['local', 'ldap'])).toBe('local');
  });

  it("falls back to 'local' for an unknown value", () => {
    window.localStorage.setItem(STORAGE_KEYS.authMethod, 'kerberos');
    expect(getAuthMethod()).toBe('local');
  });

  it("falls back to 'local' for a method the server does not enable", () => {
    setAuthMethod('disabled');
    expect(getAuthMethod(['local'])).toBe('local');
    setAuthMethod('ldap');
    expect(getAuthMethod(['local'])).toBe('local');
  });

  it('keeps an enabled stored method', () => {
    setAuthMethod('ldap');
    expect(window.localStorage.getItem(STORAGE_KEYS.authMethod)).toBe('ldap');
    expect(getAuthMethod(['local', 'ldap'])).toBe('ldap');
  });

  it("falls back to the server's default when 'local' is not enabled", () => {
    expect(getAuthMethod(['ldap', 'sso'], 'ldap')).toBe('ldap');
    setAuthMethod('moodle');
    expect(getAuthMethod(['sso'], 'sso')).toBe('sso');
    expect(getAuthMethod(['sso', 'ldap'], 'local')).toBe('sso');
  });

  it("gives 'disabled' in dev mode, and the default once dev mode is off", () => {
    expect(getAuthMethod(['disabled'], 'disabled')).toBe('disabled');
    setAuthMethod('disabled');
    expect(getAuthMethod(['disabled'], 'disabled')).toBe('disabled');
    expect(getAuthMethod(['local', 'ldap'], 'local')).toBe('local');
  });
});
