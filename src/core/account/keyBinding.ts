// Where the API key may go: only to the service origin it was checked with. A changed
// address (a setting, a workspace's own settings) never gets the key unasked; a key stored
// before keys were tied to an address is tied to the one in use at its next use.

export type KeyBinding =
  /** The key was checked with this origin: it is sent. */
  | { kind: 'same'; origin: string }
  /** Stored before keys were tied to an origin: tie it to this one, then send it. */
  | { kind: 'unbound'; origin: string }
  /** The address moved since the key was checked: the key is not sent there unless the person allows it. */
  | { kind: 'moved'; from: string; to: string };

/** How the key stands to the service at `url`; `boundTo` the origin it was checked with. */
export function keyBinding(boundTo: string | undefined, url: string): KeyBinding {
  const origin = new URL(url).origin;
  if (boundTo === undefined) return { kind: 'unbound', origin };
  return boundTo === origin ? { kind: 'same', origin } : { kind: 'moved', from: boundTo, to: origin };
}

/** Whether a request to `url` may carry the key. */
export function keyMayGo(boundTo: string | undefined, url: string): boolean {
  return keyBinding(boundTo, url).kind !== 'moved';
}
