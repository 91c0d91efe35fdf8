/**
 * A password strength meter (zxcvbn-ts). It only advises: the server decides which passwords are
 * accepted (server/src/platform/auth/passwords.ts), and the form checks the same rules before sending
 * (core's `passwordRuleProblem`), whose refusal the meter shows in place of an estimate.
 *
 * The estimate runs in a worker that loads zxcvbn-ts and its dictionaries on first use, so they
 * are neither in the main bundle nor on the page's thread. Where there is no worker, or until it
 * answers, the meter gives no estimate and the form works as before.
 */
import { Box, Progress, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { StrengthEstimate, StrengthScore } from './password-strength-estimator';

export type { StrengthEstimate, StrengthScore } from './password-strength-estimator';

/** Estimates a password's strength; null when no estimate can be had. */
export type StrengthService = (
  password: string,
  userInputs: readonly string[],
) => Promise<StrengthEstimate | null>;

/** Pause in typing before estimating. */
const ESTIMATE_DELAY_MS = 150;

let shared: StrengthService | undefined;

/** The page's strength service: one worker, started at first use; null without workers. */
export function strengthService(): StrengthService | null {
  if (shared) return shared;
  if (typeof Worker === 'undefined') return null;
  const worker = new Worker(new URL('./password-strength.worker.ts', import.meta.url), {
    type: 'module',
  });
  const pending = new Map<number, (estimate: StrengthEstimate | null) => void>();
  let next = 0;
  worker.onmessage = (event: MessageEvent<{ id: number; estimate: StrengthEstimate | null }>) => {
    pending.get(event.data.id)?.(event.data.estimate);
    pending.delete(event.data.id);
  };
  worker.onerror = () => {
    for (const resolve of pending.values()) resolve(null);
    pending.clear();
  };
  shared = (password, userInputs) =>
    new Promise((resolve) => {
      next += 1;
      pending.set(next, resolve);
      worker.postMessage({ id: next, password, userInputs: [...userInputs] });
    });
  return shared;
}

export const STRENGTH_LABELS: Record<StrengthScore, string> = {
  0: 'Very weak',
  1: 'Weak',
  2: 'Fair',
  3: 'Strong',
  4: 'Very strong',
};

const COLORS: Record<StrengthScore, string> = {
  0: 'red',
  1: 'orange',
  2: 'yellow',
  3: 'teal',
  4: 'green',
};

export interface PasswordStrengthProps {
  password: string;
  /** Words of this account (username, names, email) that make a password easy to guess. */
  userInputs?: readonly string[];
  /** Why the password would be refused (the shared rules): no estimate, "Not allowed". */
  problem?: string | null;
  /** Whether to say the reason too (not when the field already shows it as its error). */
  showProblem?: boolean;
  /** Where estimates come from; the page's worker unless given (tests give their own). */
  service?: StrengthService | null;
}

/** Strength bar and advice for a new password; nothing while the field is empty. */
export function PasswordStrength({
  password,
  userInputs = [],
  problem = null,
  showProblem = true,
  service,
}: PasswordStrengthProps) {
  const [estimate, setEstimate] = useState<{ for: string; value: StrengthEstimate } | null>(null);
  const typed = password.length > 0;

  useEffect(() => {
    if (!typed || problem) return;
    const estimateWith = service === undefined ? strengthService() : service;
    if (!estimateWith) return;
    let active = true;
    const timer = setTimeout(() => {
      estimateWith(password, userInputs).then(
        (value) => {
          if (active && value) setEstimate({ for: password, value });
        },
        () => undefined, // advice only: without an estimate the form still works
      );
    }, ESTIMATE_DELAY_MS);
    return () => {
      active = false;
      clearTimeout(timer);
    };
  }, [password, typed, problem, service, userInputs]);

  if (!typed) return null;
  const current = !problem && estimate?.for === password ? estimate.value : null;
  if (!problem && !current) return null;
  const score: StrengthScore = current ? current.score : 0;
  const label = problem ? 'Not allowed' : STRENGTH_LABELS[score];
  const advice = problem
    ? showProblem
      ? problem
      : null
    : (current?.warning ?? current?.suggestions[0] ?? null);

  return (
    <Box data-testid="password-strength">
      <Progress.Root size="sm">
        <Progress.Section
          value={(score + 1) * 20}
          color={COLORS[score]}
          withAria={false}
          role="progressbar"
          aria-label="Password strength"
          aria-valuemin={0}
          aria-valuemax={4}
          aria-valuenow={problem ? 0 : score}
          aria-valuetext={label}
        />
      </Progress.Root>
      <Text size="xs" c="dimmed" mt={4}>
        Password strength: {label}
        {advice && <> — {advice}</>}
      </Text>
    </Box>
  );
}
