import { Alert } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useLocation, useNavigate } from 'react-router';
import { denialOf, denialText } from '../lib/access-denial';

/**
 * The notice of a refused page (lib/access-denial.ts): shown above the page the user was sent to
 * (`/`), until they dismiss it or go elsewhere. Dismissing drops it from the history entry, so
 * going back to this entry or reloading does not bring it back.
 */
export function AccessNotice() {
  const location = useLocation();
  const navigate = useNavigate();
  const denial = denialOf(location.state);
  if (!denial) return null;
  return (
    <Alert
      role="alert"
      color="yellow"
      mb="lg"
      icon={<IconLock size={20} aria-hidden="true" />}
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={() =>
        void navigate(
          { pathname: location.pathname, search: location.search, hash: location.hash },
          { replace: true, state: null },
        )
      }
    >
      {denialText(denial)}
    </Alert>
  );
}
