/**
 * React's view of the live channel (live-client.ts): the one client of this tab, started by
 * `useLiveConnection` in the app shell once the person is signed in and the first page has
 * painted, and the hooks pages use: the connection's state, an event, a topic.
 */
import { useEffect, useEffectEvent, useState, useSyncExternalStore } from 'react';
import { readSession } from '../auth/session-storage';
import { nextTask } from '../next-task';
import { LiveClient, type LiveState } from './live-client';

let signedOutListener: () => void = () => undefined;

/** Resolves after the window's `load` and then an idle moment (at most IDLE_WAIT_MS later). */
function afterLoadAndIdle(): Promise<void> {
  return new Promise((resolve) => {
    const whenIdle = () => {
      void nextTask().then(() => {
        if (typeof window.requestIdleCallback === 'function') {
          window.requestIdleCallback(() => resolve(), { timeout: IDLE_WAIT_MS });
        } else setTimeout(resolve, 200);
      });
    };
    if (document.readyState === 'complete') whenIdle();
    else window.addEventListener('load', whenIdle, { once: true });
  });
}

/** The longest the channel waits for an idle moment after the page has loaded. */
const IDLE_WAIT_MS = 3_000;

/** How long a server's sign-out waits for a sign-out flow of this browser to finish first. */
const SIGNED_OUT_GRACE_MS = 2_000;

/** This tab's live client. */
export const liveClient = new LiveClient({
  token: () => readSession()?.token ?? '',
  onSignedOut: () => signedOutListener(),
});

/**
 * Keeps the connection open while `signedIn` (opened after the first paint), and calls
 * `onSignedOut` when the server ends the sign-in. Mounted once, in the app shell.
 */
export function useLiveConnection(signedIn: boolean, onSignedOut: () => void): void {
  const signedOut = useEffectEvent(onSignedOut);
  useEffect(() => {
    // A moment's grace: when another tab of this browser is signing out, its own flow ends the
    // stored session (and this tab follows it); only a session ended elsewhere (revoked,
    // deactivated, expired) is still stored after it, and then this tab checks it.
    signedOutListener = () => {
      const token = readSession()?.token;
      setTimeout(() => {
        if (token && readSession()?.token === token) signedOut();
      }, SIGNED_OUT_GRACE_MS);
    };
  }, []);
  useEffect(() => {
    if (!signedIn) {
      liveClient.stop();
      return;
    }
    let cancelled = false;
    // Once the page has loaded and the browser is idle: the page's own work and requests come
    // first, and the channel's code (a chunk of its own) is no part of the first load's long
    // tasks (docs/front-end.md). At most a few seconds; what arrives meanwhile is caught up.
    void afterLoadAndIdle().then(() => {
      if (!cancelled) void liveClient.start();
    });
    return () => {
      cancelled = true;
    };
  }, [signedIn]);
}

/** The connection's state: status, transport, attempt, round trip. */
export function useLiveState(): LiveState {
  return useSyncExternalStore(liveClient.subscribeState, liveClient.getState, liveClient.getState);
}

/** Calls `handler` with each `event` of the channel while mounted. */
export function useLiveEvent<T = unknown>(event: string, handler: (payload: T) => void): void {
  const onEvent = useEffectEvent(handler);
  useEffect(() => liveClient.on(event, (payload) => onEvent(payload as T)), [event]);
}

/**
 * Follows an area's topic (a room the server lets the person into or not) while mounted and `id`
 * is set; `handler` gets the topic's events (`presence`, or the area's own) for this id only.
 * Returns whether the server let the tab in (null while asking).
 */
export function useLiveTopic<T extends { topic: string; id: string }>(
  topic: string,
  id: string | null | undefined,
  events: readonly string[],
  handler: (event: string, payload: T) => void,
): boolean | null {
  const [joined, setJoined] = useState<boolean | null>(null);
  const onEvent = useEffectEvent(handler);
  const { status } = useLiveState();
  const connected = status === 'connected';
  const eventList = events.join(',');
  useEffect(() => {
    if (!id || !connected) return;
    const following = liveClient.follow(topic, id);
    let active = true;
    void following.ready.then((answer) => {
      if (active) setJoined(answer.ok);
    });
    const offs = eventList.split(',').map((event) =>
      liveClient.on(event, (payload) => {
        const message = payload as T;
        if (message?.topic === topic && message.id === id) onEvent(event, message);
      }),
    );
    return () => {
      active = false;
      following.leave();
      for (const off of offs) off();
    };
  }, [topic, id, connected, eventList]);
  return id ? joined : null;
}
