/**
 * Who the client is: the socket peer, or the address a trusted reverse proxy names in `X-Forwarded-For` /
 * `X-Real-IP`. Trusted proxies are given as addresses, CIDR ranges (`10.0.0.0/8`, `fd00::/8`) or `*`.
 */

/** The proxy headers of a request. */
export interface ForwardingHeaders {
  forwardedFor?: string | null;
  realIp?: string | null;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** The canonical text of an IPv4 or IPv6 address (IPv4-mapped IPv6 becomes IPv4), or null if it is none. */
export function parseIp(text: string): string | null {
  let s = text.trim();
  // Tolerate `[v6]`, `[v6]:port` and `v4:port` as some proxies write them.
  const bracketed = s.match(/^\[([^\]]+)\](?::\d{1,5})?$/);
  if (bracketed) s = bracketed[1];
  else if (/^[\d.]+:\d{1,5}$/.test(s)) s = s.slice(0, s.indexOf(":"));
  if (IPV4.test(s)) return s;
  if (!s.includes(":") || !/^[0-9a-fA-F:.]+$/.test(s) || s.length > 45) return null;
  let host: string;
  try {
    host = new URL(`http://[${s}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const mapped = host.match(/^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/);
  if (mapped) {
    const hi = parseInt(mapped[1], 16), lo = parseInt(mapped[2], 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return host;
}

/** The 4 or 16 bytes of a canonical address from parseIp. */
function bytesOf(ip: string): number[] {
  if (!ip.includes(":")) return ip.split(".").map(Number);
  const [head, tail] = ip.includes("::") ? ip.split("::") : [ip, undefined];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  return groups.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 255];
  });
}

/** True when `ip` (canonical) lies in `range` (an address or CIDR; `*` is handled by the caller). */
function inRange(ip: string, range: string): boolean {
  const slash = range.indexOf("/");
  const base = parseIp(slash < 0 ? range : range.slice(0, slash));
  if (!base) return false;
  const a = bytesOf(ip), b = bytesOf(base);
  if (a.length !== b.length) return false;
  const bits = slash < 0 ? a.length * 8 : Number(range.slice(slash + 1));
  if (!Number.isInteger(bits) || bits < 0 || bits > a.length * 8) return false;
  for (let i = 0; i < a.length; i++) {
    const take = Math.max(0, Math.min(8, bits - i * 8));
    const mask = (0xff << (8 - take)) & 0xff;
    if ((a[i] & mask) !== (b[i] & mask)) return false;
  }
  return true;
}

/** True when the address matches one of the trusted entries (`*` trusts every peer). */
export function isTrustedAddress(address: string | undefined, trusted: readonly string[]): boolean {
  if (!address) return false;
  if (trusted.includes("*")) return true;
  const ip = parseIp(address);
  return !!ip && trusted.some((range) => range !== "*" && inRange(ip, range));
}

/**
 * The client's address. Proxy headers count only when the socket peer is a trusted proxy: then the client is the
 * rightmost `X-Forwarded-For` hop that is not itself a listed proxy (hops to its left are whatever the client
 * sent), else `X-Real-IP`. `*` trusts every peer but never skips a hop, so it takes the hop the proxy appended.
 * Without a socket (in-process requests) the client is "local".
 */
export function resolveClientAddress(
  peer: string | undefined,
  headers: ForwardingHeaders,
  trusted: readonly string[],
): string {
  if (!peer) return "local";
  const peerIp = parseIp(peer) ?? peer;
  if (!isTrustedAddress(peerIp, trusted)) return peerIp;
  const listed = trusted.filter((t) => t !== "*");
  if (headers.forwardedFor) {
    let candidate = peerIp;
    for (const hop of headers.forwardedFor.split(",").reverse()) {
      const ip = parseIp(hop);
      // Garbage in the chain: trust no further than the last proxy that handed it to us.
      if (!ip) return candidate;
      candidate = ip;
      if (!listed.some((range) => inRange(ip, range))) return ip;
    }
    return candidate;
  }
  return parseIp(headers.realIp ?? "") ?? peerIp;
}

/** The throttle key of a client: its address, or its /64 network for IPv6 (one subscriber's usual share). */
export function clientKey(address: string): string {
  const ip = parseIp(address);
  if (!ip) return address.slice(0, 64);
  if (!ip.includes(":")) return ip;
  const b = bytesOf(ip);
  const groups = [];
  for (let i = 0; i < 8; i += 2) groups.push(((b[i] << 8) | b[i + 1]).toString(16));
  return `${groups.join(":")}::/64`;
}
