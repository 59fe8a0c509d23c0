import Bowser from 'bowser';
import { registrableDomain } from '../../../common/network/registrable-domain';

/** Where an event came from (docs/api.md §6.3): what the request or the tracker tells, never the address itself. */
export interface EventContext {
  /** ISO 3166-1 alpha-2, upper case. */
  country: string | null;
  deviceType: DeviceType | null;
  browser: string | null;
  os: string | null;
  referrerDomain: string | null;
  utm: Utm | null;
}

export const DEVICE_TYPES = ['desktop', 'mobile', 'tablet', 'other'] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];

export const UTM_FIELDS = ['source', 'medium', 'campaign', 'term', 'content'] as const;
export type UtmField = (typeof UTM_FIELDS)[number];
export type Utm = Record<UtmField, string | null>;

/** The longest UTM value kept (longer ones are cut there). */
export const UTM_MAX_LENGTH = 255;

export const noContext = (): EventContext => ({
  country: null,
  deviceType: null,
  browser: null,
  os: null,
  referrerDomain: null,
  utm: null,
});

/**
 * A country code as stored: two letters, upper case. Cloudflare's `XX` (unknown) and `T1` (Tor) and
 * anything else are none.
 */
export function countryCodeOf(value: string | null | undefined): string | null {
  if (typeof value !== 'string' || !/^[A-Za-z]{2}$/.test(value)) return null;
  const code = value.toUpperCase();
  return code === 'XX' ? null : code;
}

export interface Device {
  deviceType: DeviceType | null;
  browser: string | null;
  os: string | null;
}

const NO_DEVICE: Device = { deviceType: null, browser: null, os: null };

/**
 * Parsed User-Agents, most recent last. A tracker's events and a link's opens repeat a few hundred
 * User-Agents, and parsing one costs some tens of microseconds: at 20,000 events a second that
 * would be a core's share, a map lookup is not.
 */
const DEVICES = new Map<string, Device>();
const DEVICES_KEPT = 2000;

/** The device of a User-Agent (bowser): its type, browser and OS names; none without a User-Agent. */
export function deviceOf(userAgent: string | null | undefined): Device {
  if (!userAgent || userAgent.trim() === '') return NO_DEVICE;
  const known = DEVICES.get(userAgent);
  if (known) return known;
  const parsed = Bowser.parse(userAgent);
  const platform = parsed.platform.type;
  const device: Device = {
    deviceType: platform === 'desktop' || platform === 'mobile' || platform === 'tablet' ? platform : 'other',
    browser: parsed.browser.name ?? null,
    os: parsed.os.name ?? null,
  };
  if (DEVICES.size >= DEVICES_KEPT) DEVICES.delete(DEVICES.keys().next().value as string);
  DEVICES.set(userAgent, device);
  return device;
}

/** The registrable domain of a referrer: an absolute URL or a bare host name; none for an address or a local name. */
export function referrerDomainOf(referrer: string | null | undefined): string | null {
  if (typeof referrer !== 'string' || referrer.trim() === '') return null;
  const value = referrer.trim();
  let host: string;
  try {
    host = new URL(/^[a-z][a-z0-9+.-]*:/i.test(value) ? value : `https://${value}`).hostname;
  } catch {
    return null;
  }
  return registrableDomain(host.toLowerCase().replace(/\.$/, ''));
}

/**
 * UTM values as kept: each a string cut at UTM_MAX_LENGTH, blank ones none; null when none is set.
 * `read(field)` gives the raw value of `utm_<field>` (a query string) or of `utm.<field>` (an event).
 */
export function utmOf(read: (field: UtmField) => unknown): Utm | null {
  let any = false;
  const utm = {} as Utm;
  for (const field of UTM_FIELDS) {
    const raw = read(field);
    const value = typeof raw === 'string' && raw.trim() !== '' ? raw.slice(0, UTM_MAX_LENGTH) : null;
    utm[field] = value;
    any ||= value !== null;
  }
  return any ? utm : null;
}

/** The UTM parameters of an open's query string (Express's parsed query: a repeated one counts once, the first). */
export function utmOfQuery(query: Record<string, unknown>): Utm | null {
  return utmOf((field) => {
    const value = query[`utm_${field}`];
    return Array.isArray(value) ? value[0] : value;
  });
}
