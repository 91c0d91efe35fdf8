import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PasswordStrength, type StrengthService } from './password-strength';
import { createStrengthEstimator, type StrengthEstimate } from './password-strength-estimator';

const estimatorReady = createStrengthEstimator();

describe('the strength estimate (zxcvbn-ts, loaded on demand)', () => {
  it.each([
    ['eight spaces', ' '.repeat(8), []],
    ['eight NUL characters', '\u0000'.repeat(8), []],
    ['aaaaaaaa', 'aaaaaaaa', []],
    ['the username plus a digit', 'tuser101', ['tuser10']],
    ['12345678', '12345678', []],
    ['qwertyui', 'qwertyui', []],
  ])(
    'rates %s weak',
    async (_name, password, userInputs) => {
      const estimate = await estimatorReady;
      expect(estimate(password, userInputs).score).toBeLessThanOrEqual(1);
    },
    30_000,
  );

  it('rates MUSTCHG1 no better than fair (the server refuses it outright)', async () => {
    const estimate = await estimatorReady;
    expect(estimate('MUSTCHG1', []).score).toBeLessThanOrEqual(2);
  }, 30_000);

  it('rates a passphrase strong', async () => {
    const estimate = await estimatorReady;
    expect(estimate('splice the fiber at dawn', []).score).toBeGreaterThanOrEqual(3);
  }, 30_000);
});

function renderMeter(props: Parameters<typeof PasswordStrength>[0]) {
  return render(
    <MantineProvider>
      <PasswordStrength {...props} />
    </MantineProvider>,
  );
}

/** A service answering with the real estimator, recording what it was asked. */
function realService(asked: string[] = []): StrengthService {
  return async (password, userInputs) => {
    asked.push(password);
    return (await estimatorReady)(password, userInputs);
  };
}

describe('PasswordStrength', () => {
  it('shows nothing while the field is empty', () => {
    renderMeter({ password: '', service: realService() });
    expect(screen.queryByTestId('password-strength')).not.toBeInTheDocument();
  });

  it('rates a weak password with the reason and a passphrase as very strong', async () => {
    const { rerender } = renderMeter({ password: 'aaaaaaaa', service: realService() });
    const meter = await screen.findByRole('progressbar', { name: 'Password strength' });
    expect(meter).toHaveAttribute('aria-valuetext', 'Very weak');
    expect(screen.getByTestId('password-strength')).toHaveTextContent(
      'Password strength: Very weak — Repeated characters like "aaa" are easy to guess.',
    );

    rerender(
      <MantineProvider>
        <PasswordStrength password="splice the fiber at dawn" service={realService()} />
      </MantineProvider>,
    );
    await waitFor(() =>
      expect(screen.getByRole('progressbar', { name: 'Password strength' })).toHaveAttribute(
        'aria-valuetext',
        'Very strong',
      ),
    );
  }, 30_000);

  it('counts the account’s own words against the password', async () => {
    renderMeter({ password: 'tuser101', userInputs: ['tuser10'], service: realService() });
    expect(
      await screen.findByText(/There should not be any personal or page related data/),
    ).toBeInTheDocument();
  }, 30_000);

  it('shows a rule refusal as "Not allowed" without asking for an estimate', async () => {
    const asked: string[] = [];
    renderMeter({
      password: 'MUSTCHG1',
      problem: 'Password must not be a default or placeholder password.',
      service: realService(asked),
    });
    expect(screen.getByRole('progressbar', { name: 'Password strength' })).toHaveAttribute(
      'aria-valuetext',
      'Not allowed',
    );
    expect(screen.getByTestId('password-strength')).toHaveTextContent(
      'Password strength: Not allowed — Password must not be a default or placeholder password.',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(asked).toEqual([]);
  });

  it('estimates once typing pauses, and never shows an estimate of an older value', async () => {
    const asked: string[] = [];
    const slow: StrengthService = (password) =>
      new Promise<StrengthEstimate>((resolve) => {
        asked.push(password);
        setTimeout(
          () => resolve({ score: password.length > 12 ? 4 : 0, warning: null, suggestions: [] }),
          password === 'short one' ? 400 : 10,
        );
      });
    const { rerender } = renderMeter({ password: 'short one', service: slow });
    await waitFor(() => expect(asked).toEqual(['short one']));
    rerender(
      <MantineProvider>
        <PasswordStrength password="a much longer passphrase" service={slow} />
      </MantineProvider>,
    );
    await waitFor(() =>
      expect(screen.getByRole('progressbar', { name: 'Password strength' })).toHaveAttribute(
        'aria-valuetext',
        'Very strong',
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(screen.getByRole('progressbar', { name: 'Password strength' })).toHaveAttribute(
      'aria-valuetext',
      'Very strong',
    );
  });

  it('without any estimator (no worker) stays silent unless a rule refuses', () => {
    renderMeter({ password: 'anything at all', service: null });
    expect(screen.queryByTestId('password-strength')).not.toBeInTheDocument();
  });
});
