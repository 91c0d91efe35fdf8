/**
 * Where a library link may go (docs/library.md, "Links"): core's syntax rule (http or https, no
 * user name or password; core/src/link-url.ts), then the destination. A host given as an IP
 * address in any form the browser reads (`127.1`, `0x7f000001`, `2130706433`, `[::1]`,
 * `[::ffff:127.0.0.1]` — WHATWG URL parsing normalises them all) must be a public unicast
 * address: not loopback, private (10/8, 172.16/12, 192.168/16, fc00::/7), carrier-grade NAT
 * (100.64/10), link-local (169.254/16, fe80::/10), unspecified, multicast, reserved, or an IPv6
 * form that carries an IPv4 address (mapped, NAT64, 6to4, Teredo). A host name must not name this
 * machine or a local network (`localhost`, `*.localhost`, one label, `.local`, …). The admin's
 * allowed internal hosts (Admin → System) pass. Checked when an item is added or changed, and
 * again when its link is followed (the download route), so a link saved before the rule, or
 * whose host was taken off the list, is refused rather than followed.
 */
import { hostAllowed, isLocalHostName, LINK_URL_MESSAGES, linkUrlSyntax } from '@learning-hub/core';
import ipaddr from 'ipaddr.js';
import type { Db } from '../../platform/db';
import { allowedInternalLinkHosts } from '../../platform/settings/settings-repository';

/** Whether a normalised host is an IP address outside the public unicast space. */
function isNonPublicAddress(host: string): boolean | null {
  if (!ipaddr.isValid(host)) return null;
  return ipaddr.parse(host).range() !== 'unicast';
}

/** Why a link's address is refused (null: it may be followed), given the allowed hosts. */
export function linkAddressRefusal(url: string, allowedHosts: readonly string[]): string | null {
  const checked = linkUrlSyntax(url);
  if (!checked.ok) return checked.message;
  const { host } = checked;
  if (hostAllowed(host, allowedHosts)) return null;
  const nonPublic = isNonPublicAddress(host) ?? isLocalHostName(host);
  return nonPublic ? LINK_URL_MESSAGES.notPublic(checked.url.hostname) : null;
}

/** The same, reading the allowed hosts from the settings. */
export async function checkLinkAddress(db: Db, url: string): Promise<string | null> {
  return linkAddressRefusal(url, await allowedInternalLinkHosts(db));
}
