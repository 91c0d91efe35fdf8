/**
 * Password hashing (argon2id, m=19456 KiB, t=2, p=1 as OWASP recommends) and the policy for new
 * passwords (NIST SP 800-63B): at least 8 characters, up to 256, any characters, no composition
 * rules; refused when among the 3,000 most common passwords or equal to the username.
 */
import { readFileSync } from 'node:fs';
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { passwordLengthProblem } from '@learning-hub/core';

const ARGON2ID = 2 as Algorithm; // Algorithm.Argon2id (a const enum, not importable as a value)
const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/** Hashes a password exactly as typed. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** Verifies a password exactly as typed; false (never a throw) for a malformed hash. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same time as a real verification, for unknown accounts, so a wrong username and a
 * wrong password cannot be told apart by timing.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('learning-hub-timing-equaliser');
  await verifyPassword(await dummyHash, password);
  return false;
}

let commonPasswords: ReadonlySet<string> | undefined;

/** The 3,000 most common passwords (lower-cased), shipped beside this module. */
export function getCommonPasswords(): ReadonlySet<string> {
  if (!commonPasswords) {
    const text = readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8');
    commonPasswords = new Set(
      text
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean),
    );
  }
  return commonPasswords;
}

export const PASSWORD_MESSAGES = {
  tooCommon: 'This password is too common. Choose a less common one.',
  sameAsUsername: 'Password must not be the same as your username.',
  sameAsCurrent: 'New password must be different from the current password.',
} as const;

/** Why a new password is refused, or null when it is acceptable. */
export function passwordPolicyProblem(password: string, username: string): string | null {
  const lengthProblem = passwordLengthProblem(password);
  if (lengthProblem) return lengthProblem;
  const lower = password.toLowerCase();
  if (getCommonPasswords().has(lower)) return PASSWORD_MESSAGES.tooCommon;
  if (lower === username.toLowerCase()) return PASSWORD_MESSAGES.sameAsUsername;
  return null;
}
