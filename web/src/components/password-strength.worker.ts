/**
 * Runs the strength estimate off the page's thread: building zxcvbn's dictionaries takes about a
 * second and each estimate up to ~100 ms, which would make typing stutter.
 */
import { createStrengthEstimator } from './password-strength-estimator';

export interface EstimateRequest {
  id: number;
  password: string;
  userInputs: string[];
}

const estimator = createStrengthEstimator();
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<EstimateRequest>) => void) | null;
  postMessage(message: unknown): void;
};

scope.onmessage = (event) => {
  const { id, password, userInputs } = event.data;
  estimator.then(
    (estimate) => scope.postMessage({ id, estimate: estimate(password, userInputs) }),
    () => scope.postMessage({ id, estimate: null }),
  );
};
