/**
 * The rules for a new password (NIST SP 800-63B §3.1.1.2, OWASP ASVS V6), shared by the server,
 * which enforces them, and the forms, which show the same refusal before sending. The server adds
 * one rule that needs data only it has: the list of the 3,000 most common passwords.
 *
 * - A password is compared and hashed in its Unicode compatibility form (NFKC), so `ｐａｓｓ` and
 *   `pass`, or a ligature and its letters, are the same password wherever they are typed.
 * - 8 to 256 characters (code points of the NFKC form); any printable Unicode, spaces included;
 *   no composition rules (no "one digit, one capital").
 * - Refused: control characters (NUL, tab, line breaks…) and broken surrogates; only white
 *   space; one character or a short group repeated (`aaaaaaaa`, `abababab`); a run along the
 *   alphabet, the digits or a keyboard row (`abcdefgh`, `87654321`, `qwertyui`), also with a
 *   few digits or symbols around it; the account's username, first or last name or the name in
 *   its email address (3 characters or more) anywhere in it; a word of this site or a
 *   placeholder an administrator hands out (`learninghub`, `changeme`, `MUSTCHG1`), with digits
 *   or symbols around it; the current password.
 */
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../constants';

/** The account a new password is for: its username and names are off limits. */
export interface PasswordOwner {
  username: string;
  firstname?: string | null;
  lastname?: string | null;
  email?: string | null;
}

/** The texts of the refusals, one per rule, shown as they are by the forms and the API. */
export const PASSWORD_MESSAGES = {
  tooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`,
  tooLong: `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`,
  controlCharacters:
    'Password must not contain control characters such as tabs, line breaks or NUL.',
  brokenCharacter: 'Password contains a broken character (an unpaired UTF-16 surrogate).',
  onlySpaces: 'Password must not be only spaces.',
  repeated: 'Password must not be one character or a short group of characters repeated.',
  sequence:
    'Password must not be a simple sequence such as abcdefgh, 12345678 or a row of the keyboard.',
  containsUsername: 'Password must not contain your username.',
  containsName: 'Password must not contain your first name, last name or email address.',
  siteWord:
    'Password must not be a default or placeholder password such as "changeme", "MUSTCHG1" or the name of this site, even with digits or symbols added.',
  tooCommon: 'This password is too common. Choose a less common one.',
  sameAsUsername: 'Password must not be the same as your username.',
  sameAsCurrent: 'New password must be different from the current password.',
} as const;

/** A password as it is compared and hashed: its Unicode compatibility form (NFKC). */
export function normalisePassword(password: string): string {
  return password.normalize('NFKC');
}

/**
 * Length rule of a new password (counted in Unicode code points of its NFKC form, no composition
 * rules).
 */
export function passwordLengthProblem(password: string): string | null {
  const length = [...normalisePassword(password)].length;
  if (length < PASSWORD_MIN_LENGTH) return PASSWORD_MESSAGES.tooShort;
  if (length > PASSWORD_MAX_LENGTH) return PASSWORD_MESSAGES.tooLong;
  return null;
}

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Rows along which people type "sequences", each read both ways. */
const SEQUENCES = [
  'abcdefghijklmnopqrstuvwxyz',
  '01234567890',
  'qwertyuiop',
  'asdfghjkl',
  'zxcvbnm',
  'qwertzuiop',
  'yxcvbnm',
  'azertyuiop',
  'qsdfghjklm',
  'wxcvbn',
  '1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik9ol0p',
  'qazwsxedcrfvtgbyhnujmikolp',
  '!@#$%^&*()',
];

/**
 * Words of this site and the placeholders administrators hand out for a first sign-in (the
 * letters only, lower case): `MUSTCHG1`, `Temp-2024`, `LearningHub2024` are all one of these.
 * Placeholders that are common passwords as well (`changeme`, `password`, `welcome`) are refused
 * by the server's common-password list, with its message.
 */
const SITE_WORDS = new Set([
  'learninghub',
  'learning',
  'hub',
  'mustchange',
  'mustchg',
  'mustchng',
  'changeit',
  'changethis',
  'changepassword',
  'newpassword',
  'default',
  'temp',
  'temppass',
  'temppassword',
  'temporary',
  'onetime',
  'onetimepassword',
  'initial',
  'administrator',
  'instructor',
]);

/** The password with at most 6 leading and trailing digits, symbols and spaces cut off. */
function core(lower: string): string {
  return lower.replace(/^[\p{N}\p{P}\p{S}\s]{1,6}/u, '').replace(/[\p{N}\p{P}\p{S}\s]{1,6}$/u, '');
}

/** Common letter-for-digit swaps (`p@ssw0rd`) undone. */
function unLeet(text: string): string {
  const map: Record<string, string> = {
    '0': 'o',
    '1': 'i',
    '3': 'e',
    '4': 'a',
    '5': 's',
    '7': 't',
    '8': 'b',
    '@': 'a',
    $: 's',
    '!': 'i',
    '|': 'l',
  };
  return text.replace(/[0134578@$!|]/g, (c) => map[c] ?? c);
}

/** Whether `text` is one unit of 1 to 4 characters repeated over its whole length. */
function isRepeated(text: string): boolean {
  const chars = [...text];
  for (let unit = 1; unit <= 4 && unit * 2 <= chars.length; unit++) {
    if (chars.every((c, i) => c === chars[i % unit])) return true;
  }
  return false;
}

/** Whether `text` runs along consecutive code points (up or down) or along a sequence row. */
function isSequence(text: string): boolean {
  const chars = [...text];
  if (chars.length < 3) return false;
  for (const step of [1, -1]) {
    if (
      chars.every(
        (c, i) => i === 0 || c.codePointAt(0) === (chars[i - 1]?.codePointAt(0) ?? 0) + step,
      )
    ) {
      return true;
    }
  }
  const reversed = chars.slice().reverse().join('');
  return SEQUENCES.some((row) => row.includes(text) || row.includes(reversed));
}

/** Whether the password (lower case, NFKC) is a pattern rather than a secret. */
function patternProblem(lower: string): string | null {
  const stripped = core(lower);
  const candidates = stripped.length >= 4 && stripped !== lower ? [lower, stripped] : [lower];
  if (candidates.some(isRepeated)) return PASSWORD_MESSAGES.repeated;
  if (candidates.some(isSequence)) return PASSWORD_MESSAGES.sequence;
  return null;
}

/** The forms of a name that a password must not contain: as written, and without separators. */
function nameForms(value: string | null | undefined): string[] {
  if (!value) return [];
  const lower = normalisePassword(value).toLowerCase().trim();
  const compact = lower.replace(/[\s\-_.'’]+/gu, '');
  return [...new Set([lower, compact])].filter((form) => [...form].length >= 3);
}

/**
 * The "derivatives" a common-password or site-word check looks at: the password as typed (lower
 * case), without the digits and symbols around it, and with letter-for-digit swaps undone.
 */
export function passwordBaseWords(password: string): string[] {
  const lower = normalisePassword(password).toLowerCase();
  const forms = [lower, core(lower), unLeet(lower), core(unLeet(lower)), unLeet(core(lower))];
  return [...new Set(forms)].filter((form) => form.length > 0);
}

export interface PasswordCheckOptions {
  /** The current password: the new one must differ from it. */
  currentPassword?: string;
}

/**
 * Why a new password is refused under the rules every client can check, or null. The server
 * checks this and, on top, its list of common passwords (server/src/platform/auth/passwords.ts).
 */
export function passwordRuleProblem(
  password: string,
  owner: PasswordOwner,
  options: PasswordCheckOptions = {},
): string | null {
  if (LONE_SURROGATE.test(password)) return PASSWORD_MESSAGES.brokenCharacter;
  const normalised = normalisePassword(password);
  if (CONTROL.test(normalised)) return PASSWORD_MESSAGES.controlCharacters;
  const lengthProblem = passwordLengthProblem(password);
  if (lengthProblem) return lengthProblem;
  if (/^[\s\p{Cf}]*$/u.test(normalised)) return PASSWORD_MESSAGES.onlySpaces;
  if (
    options.currentPassword !== undefined &&
    normalised === normalisePassword(options.currentPassword)
  ) {
    return PASSWORD_MESSAGES.sameAsCurrent;
  }

  const lower = normalised.toLowerCase();
  const username = normalisePassword(owner.username).toLowerCase();
  if (lower === username) return PASSWORD_MESSAGES.sameAsUsername;
  if (nameForms(owner.username).some((form) => lower.includes(form))) {
    return PASSWORD_MESSAGES.containsUsername;
  }
  const emailName = owner.email?.split('@')[0] ?? null;
  if (
    [owner.firstname, owner.lastname, emailName]
      .flatMap(nameForms)
      .some((form) => lower.includes(form))
  ) {
    return PASSWORD_MESSAGES.containsName;
  }

  const patterns = patternProblem(lower);
  if (patterns) return patterns;
  const words = passwordBaseWords(password).map((w) => w.replace(/[^\p{L}]/gu, ''));
  if (words.some((w) => SITE_WORDS.has(w))) return PASSWORD_MESSAGES.siteWord;
  return null;
}
