import { Center, Loader } from '@mantine/core';

/** The spinner shown while a page (or the signed-in user) loads. */
export function PageLoader({ label = 'Loading page' }: { label?: string }) {
  return (
    <Center mih="50vh" role="status" aria-live="polite">
      <Loader aria-label={label} />
    </Center>
  );
}
