/**
 * The password strength estimate (zxcvbn-ts with its common and English dictionaries). Only
 * advice: the server decides which passwords are accepted. The library and dictionaries are
 * imported on first use (their own chunks, never the main bundle); building the ranked
 * dictionaries takes about a second, which is why the page runs this in a worker
 * (password-strength.worker.ts).
 */

export type StrengthScore = 0 | 1 | 2 | 3 | 4;

export interface StrengthEstimate {
  score: StrengthScore;
  /** zxcvbn's warning, e.g. "This is a commonly used password." */
  warning: string | null;
  suggestions: string[];
}

export type StrengthEstimator = (
  password: string,
  userInputs: readonly string[],
) => StrengthEstimate;

/** zxcvbn looks at this many characters at most: longer passwords are strong anyway, and slow. */
export const ESTIMATE_LENGTH = 100;

/** Loads zxcvbn-ts and its dictionaries and returns the estimator. */
export async function createStrengthEstimator(): Promise<StrengthEstimator> {
  const [core, common, en] = await Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ]);
  const zxcvbn = new core.ZxcvbnFactory({
    translations: en.translations,
    graphs: common.adjacencyGraphs,
    dictionary: { ...common.dictionary, ...en.dictionary },
  });
  return (password, userInputs) => {
    const result = zxcvbn.check(password.slice(0, ESTIMATE_LENGTH), [...userInputs]);
    return {
      score: result.score,
      warning: result.feedback.warning || null,
      suggestions: result.feedback.suggestions,
    };
  };
}
