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
    signedOutListener = () => signedOut();
  }, []);
  useEffect(() => {
    if (!signedIn) {
      liveClient.stop();
      return;
    }
    let cancelled = false;
    // Two tasks on: the page has painted and its own requests are out (docs/front-end.md).
    void nextTask()
      .then(nextTask)
      .then(() => {
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
