/**
 * Pages re-render when dates read differently (docs/settings.md): a new time zone or date format
 * applies to the page on screen at once, without a reload and without losing what is typed. The
 * router wraps every page in one (app/router.tsx): the wrapper re-renders when the settings of
 * dates change and renders its page anew, so everything the page shows is formatted again, while
 * React keeps the page's state (same components, same places).
 */
import type { ComponentType } from 'react';
import { useDateFormatVersion } from './display-settings';

/** Renders `Page`, again whenever the way dates read changes. */
export function DisplaySettingsBoundary({ Page }: { Page: ComponentType }) {
  useDateFormatVersion();
  return <Page />;
}

const wrapped = new WeakMap<ComponentType, ComponentType>();

/** `Page` inside a DisplaySettingsBoundary, the same component for the same page each time. */
export function followingDisplaySettings(Page: ComponentType): ComponentType {
  let component = wrapped.get(Page);
  if (!component) {
    const Wrapped = () => <DisplaySettingsBoundary Page={Page} />;
    Wrapped.displayName = `FollowingDisplaySettings(${Page.displayName ?? Page.name})`;
    component = Wrapped;
    wrapped.set(Page, component);
  }
  return component;
}
