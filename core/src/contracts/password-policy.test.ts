import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  normalisePassword,
  PASSWORD_MESSAGES,
  passwordBaseWords,
  passwordLengthProblem,
  passwordRuleProblem,
  type PasswordOwner,
} from './password-policy';

const owner: PasswordOwner = {
  username: 'tuser10',
  firstname: 'Erin',
  lastname: 'van der Berg',
  email: 'erin.t@fiberco.example',
};
/** Any UTF-16 code units, lone surrogates included. */
const utf16 = fc
  .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 300 })
  .map((units) => String.fromCharCode(...units));

const check = (password: string, who: PasswordOwner = owner) => passwordRuleProblem(password, who);

describe('passwordRuleProblem: the weak passwords of the report', () => {
  it.each([
    ['eight spaces', ' '.repeat(8), PASSWORD_MESSAGES.onlySpaces],
    ['eight ideographic spaces', '\u3000'.repeat(8), PASSWORD_MESSAGES.onlySpaces],
    ['eight zero-width spaces', '\u200b'.repeat(8), PASSWORD_MESSAGES.onlySpaces],
    ['eight NUL characters', '\u0000'.repeat(8), PASSWORD_MESSAGES.controlCharacters],
    ['a tab inside', 'good\tpassphrase', PASSWORD_MESSAGES.controlCharacters],
    ['a line break inside', 'good\npassphrase', PASSWORD_MESSAGES.controlCharacters],
    ['a lone surrogate', 'good pass\ud800', PASSWORD_MESSAGES.brokenCharacter],
    ['aaaaaaaa', 'aaaaaaaa', PASSWORD_MESSAGES.repeated],
    ['a repeated group', 'abababab', PASSWORD_MESSAGES.repeated],
    ['a repeated character with a digit', 'zzzzzzzz1', PASSWORD_MESSAGES.repeated],
    ['abcdefgh', 'abcdefgh', PASSWORD_MESSAGES.sequence],
    ['12345678', '12345678', PASSWORD_MESSAGES.sequence],
    ['87654321', '87654321', PASSWORD_MESSAGES.sequence],
    ['qwertyui', 'qwertyui', PASSWORD_MESSAGES.sequence],
    ['a keyboard row backwards', 'lkjhgfds', PASSWORD_MESSAGES.sequence],
    ['a sequence with a suffix', 'abcdefgh!1', PASSWORD_MESSAGES.sequence],
    ['the username plus a digit', 'tuser101', PASSWORD_MESSAGES.containsUsername],
    ['the username in capitals', 'TUSER10!', PASSWORD_MESSAGES.containsUsername],
    ['the username in full width', 'ｔｕｓｅｒ１０ｘ', PASSWORD_MESSAGES.containsUsername],
    ['the first name', 'Erin2024!!', PASSWORD_MESSAGES.containsName],
    ['the last name without spaces', 'VanDerBerg#1', PASSWORD_MESSAGES.containsName],
    ['the email name', 'xx erin.t xx', PASSWORD_MESSAGES.containsName],
    ['MUSTCHG1', 'MUSTCHG1', PASSWORD_MESSAGES.siteWord],
    ['a placeholder with digits', 'Temp-2024', PASSWORD_MESSAGES.siteWord],
    ['must change, spelt out', 'MustChange!', PASSWORD_MESSAGES.siteWord],
    ['the name of the site', 'LearningHub2024', PASSWORD_MESSAGES.siteWord],
    ['a leet placeholder', 'T3mp0r4ry!', PASSWORD_MESSAGES.siteWord],
    ['too short', 'short', PASSWORD_MESSAGES.tooShort],
    ['too long', 'x y'.repeat(100), PASSWORD_MESSAGES.tooLong],
  ])('refuses %s', (_name, password, message) => {
    expect(check(password)).toBe(message);
  });

  it('refuses the username itself, whatever its length', () => {
    expect(check('username', { username: 'UserName' })).toBe(PASSWORD_MESSAGES.sameAsUsername);
  });

  it('refuses the current password, also in another Unicode form', () => {
    expect(
      passwordRuleProblem('ｆｉｂｅｒ ｓｐｌｉｃｅｒ', owner, { currentPassword: 'fiber splicer' }),
    ).toBe(PASSWORD_MESSAGES.sameAsCurrent);
  });

  it('ignores names shorter than 3 characters', () => {
    expect(check('jo likes fiber', { username: 'jo', firstname: 'Jo', lastname: 'Li' })).toBeNull();
  });
});

describe('passwordRuleProblem: what stays allowed', () => {
  it.each([
    'splice the fiber at dawn',
    'correct horse battery staple',
    'Tr1cky pass ',
    '  spaces   around  ',
    'Zoë’s 🔌 fiber',
    'пароль для входа',
    '密码很长很长很长',
    'كلمة سر طويلة جدا',
    'a'.repeat(3) + 'b fine c',
    'a long passphrase about splicing fiber in the rain, '.repeat(4),
  ])('accepts %j', (password) => {
    expect(check(password)).toBeNull();
  });

  it('accepts random passphrases of four words', () => {
    const word = fc.constantFrom(
      'fiber',
      'splice',
      'otdr',
      'trace',
      'copper',
      'river',
      'lantern',
      'marble',
      'orbit',
      'velvet',
    );
    fc.assert(
      fc.property(fc.tuple(word, word, word, word), (words) => {
        expect(check(words.join(' '))).toBeNull();
      }),
    );
  });

  it('never throws, whatever the input', () => {
    fc.assert(
      fc.property(utf16, fc.string(), (password, name) => {
        const problem = passwordRuleProblem(password, { username: name, firstname: name });
        expect(problem === null || typeof problem === 'string').toBe(true);
      }),
    );
  });
});

describe('normalisation', () => {
  it('compares the NFKC form', () => {
    expect(normalisePassword('ﬁber ｓｐｌｉｃｅ')).toBe('fiber splice');
    expect(passwordLengthProblem('ﬃﬃﬃ')).toBeNull(); // nine letters once normalised
  });

  it('looks at the base word behind digits, symbols and swaps', () => {
    expect(passwordBaseWords('P@ssw0rd123!')).toContain('password');
    expect(passwordBaseWords('Monkey2024')).toContain('monkey');
  });
});
