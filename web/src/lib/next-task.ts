/**
 * Resolves in a task of its own, once the browser has had the main thread (input, paint): work
 * split by it is a series of short tasks rather than one long one, which a phone's CPU makes long
 * (docs/front-end.md "Total blocking time"). A message rather than a timer: a tab in the
 * background throttles timers, not messages; and unlike a timer, a message is not recorded with
 * the stack that set it in a performance trace (Lighthouse's), which in a deep React commit costs
 * more than the timer itself.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
