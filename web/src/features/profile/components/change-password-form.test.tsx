import { PASSWORD_MESSAGES } from '@learning-hub/core';
import { screen, waitFor } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createStrengthEstimator,
  type StrengthEstimator,
} from '../../../components/password-strength-estimator';
import type { EstimateRequest } from '../../../components/password-strength.worker';
import { buildUser } from '../../../test/fixtures';
import { renderApp, signedInAs } from '../../../test/render-app';

const student = buildUser(); // username "student", Sam Student
const sessionRoutes = {
  'GET /api/auth/sessions': { body: { items: [], total: 0, page: 1, pageSize: 25 } },
};

/** jsdom has no workers: this one runs the real estimator on the page's thread. */
class EstimatorWorker {
  static urls: string[] = [];
  static estimator: Promise<StrengthEstimator> | undefined;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(url: URL, options?: WorkerOptions) {
    EstimatorWorker.urls.push(`${url.pathname} ${options?.type}`);
    EstimatorWorker.estimator ??= createStrengthEstimator();
  }
  postMessage({ id, password, userInputs }: EstimateRequest) {
    void EstimatorWorker.estimator?.then((estimate) =>
      this.onmessage?.({ data: { id, estimate: estimate(password, userInputs) } } as MessageEvent),
    );
  }
  terminate() {}
}

beforeEach(() => {
  vi.stubGlobal('Worker', EstimatorWorker); // the test setup unstubs globals after each test
});
beforeAll(async () => {
  // Loading the dictionaries takes seconds on a busy machine: not inside a test's waiting.
  EstimatorWorker.estimator = createStrengthEstimator();
  await EstimatorWorker.estimator;
}, 60_000);

async function openForm() {
  const fetchMock = signedInAs(student, sessionRoutes);
  const view = renderApp('/profile-settings');
  await screen.findByRole('heading', { level: 1, name: 'Profile Settings' }, { timeout: 15_000 });
  return { fetchMock, ...view };
}

describe('change password form', () => {
  it.each([
    ['MUSTCHG1', 'MUSTCHG1', PASSWORD_MESSAGES.siteWord],
    ['the username plus a digit', 'student1', PASSWORD_MESSAGES.containsUsername],
    ['the first name', 'Sam likes fiber', PASSWORD_MESSAGES.containsName],
    ['eight spaces', '        ', PASSWORD_MESSAGES.onlySpaces],
    ['aaaaaaaa', 'aaaaaaaa', PASSWORD_MESSAGES.repeated],
    ['12345678', '12345678', PASSWORD_MESSAGES.sequence],
  ])(
    'refuses %s before calling the server, as the server would',
    async (_n, password, message) => {
      const { fetchMock, user } = await openForm();
      await user.type(screen.getByLabelText(/Current password/), 'my old passphrase');
      await user.type(screen.getByLabelText(/^New password/), password);
      expect(screen.getByRole('progressbar', { name: 'Password strength' })).toHaveAttribute(
        'aria-valuetext',
        'Not allowed',
      );
      await user.type(screen.getByLabelText(/Confirm new password/), password);
      await user.click(screen.getByRole('button', { name: 'Change password' }));
      expect(await screen.findByText(message, {}, { timeout: 10_000 })).toBeInTheDocument();
      expect(screen.getByLabelText(/^New password/)).toHaveAccessibleDescription(
        expect.stringContaining(message),
      );
      expect(fetchMock.callsTo('POST /api/auth/change-password')).toHaveLength(0);
    },
    30_000,
  );

  it('rates the new password with zxcvbn in a worker, and the server stays the authority', async () => {
    const { fetchMock, user } = await openForm();
    fetchMock.set({
      'POST /api/auth/change-password': {
        status: 400,
        body: {
          code: 'PASSWORD_POLICY',
          message: 'This password is too common. Choose a less common one.',
        },
      },
    });
    await user.type(screen.getByLabelText(/Current password/), 'my old passphrase');
    // The worker (zxcvbn and its dictionaries, 1.7 MB) starts only once a new password is typed.
    expect(EstimatorWorker.urls).toEqual([]);
    await user.type(screen.getByLabelText(/^New password/), 'splice the fiber at dawn');
    await waitFor(
      () =>
        expect(screen.getByRole('progressbar', { name: 'Password strength' })).toHaveAttribute(
          'aria-valuetext',
          'Very strong',
        ),
      { timeout: 20_000 },
    );
    expect(EstimatorWorker.urls).toEqual([
      expect.stringMatching(/password-strength\.worker\.ts module$/),
    ]);

    await user.type(screen.getByLabelText(/Confirm new password/), 'splice the fiber at dawn');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(
      await screen.findByText(
        'This password is too common. Choose a less common one.',
        {},
        { timeout: 10_000 },
      ),
    ).toBeInTheDocument();
    expect(fetchMock.callsTo('POST /api/auth/change-password')[0]?.body).toEqual({
      currentPassword: 'my old passphrase',
      newPassword: 'splice the fiber at dawn',
    });
  }, 60_000);
});
