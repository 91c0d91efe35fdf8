import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { PageLoader } from '../../../components/page-loader';
import { useAuth } from '../../../lib/auth/auth-context';

/**
 * /learning/logout (docs/spec-readings.md): clears whatever session state this browser still
 * holds, then goes to /login. Reached after every logout, and the place a failed logout call ends up.
 */
export function LearningLogoutPage() {
  const { signOutLocally } = useAuth();
  const navigate = useNavigate();
  useEffect(() => {
    signOutLocally();
    void navigate('/login', { replace: true });
  }, [signOutLocally, navigate]);
  return <PageLoader label="Signing out" />;
}
