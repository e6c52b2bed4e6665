import assert from "node:assert/strict";
import { clientKey, isTrustedAddress, parseIp, resolveClientAddress } from "./client_address.ts";

Deno.test("parseIp() canonicalises IPv4/IPv6 and refuses everything else", () => {
  const cases: [string, string | null][] = [
    ["203.0.113.5", "203.0.113.5"],
    [" 203.0.113.5 ", "203.0.113.5"],
    ["203.0.113.5:8080", "203.0.113.5"],
    ["2001:DB8::1", "2001:db8::1"],
    ["2001:db8:0:0:0:0:0:1", "2001:db8::1"],
    ["[2001:db8::1]:443", "2001:db8::1"],
    ["::ffff:192.0.2.1", "192.0.2.1"],
    ["::1", "::1"],
    ["256.1.1.1", null],
    ["01.2.3.4", null],
    ["0x7f.0.0.1", null],
    ["127.1", null],
    ["evil.example", null],
    ["unknown", null],
    ["", null],
    ["fe80::1%eth0", null],
    ["1.2.3.4, 5.6.7.8", null],
    ["2001:db8::1::2", null],
  ];
  for (const [input, expected] of cases) assert.equal(parseIp(input), expected, input);
});

Deno.test("isTrustedAddress() matches addresses, CIDR ranges and *", () => {
  const trusted = ["127.0.0.1", "::1", "10.0.0.0/8", "fd00::/8", "192.0.2.128/25"];
  assert.ok(isTrustedAddress("127.0.0.1", trusted));
  assert.ok(isTrustedAddress("::ffff:127.0.0.1", trusted));
  assert.ok(isTrustedAddress("::1", trusted));
  assert.ok(isTrustedAddress("10.200.3.4", trusted));
  assert.ok(isTrustedAddress("fd12:3456::1", trusted));
  assert.ok(isTrustedAddress("192.0.2.200", trusted));
  assert.ok(!isTrustedAddress("192.0.2.100", trusted));
  assert.ok(!isTrustedAddress("11.0.0.1", trusted));
  assert.ok(!isTrustedAddress("fe80::1", trusted));
  assert.ok(!isTrustedAddress("127.0.0.2", trusted));
  assert.ok(!isTrustedAddress(undefined, trusted));
  assert.ok(!isTrustedAddress("10.0.0.1", ["10.0.0.0/33", "nonsense"]));
  assert.ok(isTrustedAddress("198.51.100.7", ["*"]));
});

Deno.test("resolveClientAddress() believes proxy headers only from a trusted peer", () => {
  const trusted = ["127.0.0.1", "10.0.0.0/8"];
  const xff = { forwardedFor: "198.51.100.7" };
  // Untrusted peer: its own address, whatever it claims.
  assert.equal(resolveClientAddress("203.0.113.9", xff, trusted), "203.0.113.9");
  assert.equal(resolveClientAddress("203.0.113.9", { realIp: "198.51.100.7" }, trusted), "203.0.113.9");
  // Trusted peer: the rightmost hop that is not a proxy.
  assert.equal(resolveClientAddress("127.0.0.1", xff, trusted), "198.51.100.7");
  assert.equal(
    resolveClientAddress("127.0.0.1", { forwardedFor: "1.1.1.1, 198.51.100.7, 10.1.2.3" }, trusted),
    "198.51.100.7",
    "spoofed hops on the left are skipped, inner proxies on the right too",
  );
  assert.equal(
    resolveClientAddress("127.0.0.1", { forwardedFor: "10.1.1.1, 10.2.2.2" }, trusted),
    "10.1.1.1",
  );
  assert.equal(
    resolveClientAddress("127.0.0.1", { forwardedFor: "198.51.100.7, garbage, 10.1.2.3" }, trusted),
    "10.1.2.3",
    "garbage stops the walk at the last proxy",
  );
  assert.equal(resolveClientAddress("127.0.0.1", { forwardedFor: "garbage" }, trusted), "127.0.0.1");
  assert.equal(resolveClientAddress("127.0.0.1", { realIp: "198.51.100.8" }, trusted), "198.51.100.8");
  assert.equal(resolveClientAddress("127.0.0.1", { realIp: "nonsense" }, trusted), "127.0.0.1");
  assert.equal(resolveClientAddress("127.0.0.1", {}, trusted), "127.0.0.1");
  // `*`: the hop the proxy appended, not the client-supplied ones.
  assert.equal(
    resolveClientAddress("203.0.113.9", { forwardedFor: "1.1.1.1, 198.51.100.7" }, ["*"]),
    "198.51.100.7",
  );
  assert.equal(resolveClientAddress(undefined, xff, trusted), "local");
});

Deno.test("resolveClientAddress(): X-Forwarded-For wins over X-Real-IP (docs/reverse-proxy.md)", () => {
  const trusted = ["127.0.0.1"];
  const both = { forwardedFor: "198.51.100.7", realIp: "198.51.100.8" };
  assert.equal(resolveClientAddress("127.0.0.1", both, trusted), "198.51.100.7");
  // X-Real-IP counts only without X-Forwarded-For: a garbage chain ends at the peer, not at X-Real-IP.
  assert.equal(
    resolveClientAddress("127.0.0.1", { forwardedFor: "unknown", realIp: "198.51.100.8" }, trusted),
    "127.0.0.1",
  );
  // An empty header is no header (what a proxy that clears it sends, if anything).
  assert.equal(
    resolveClientAddress("127.0.0.1", { forwardedFor: "", realIp: "198.51.100.8" }, trusted),
    "198.51.100.8",
  );
  // A proxy that sets only X-Real-IP and passes the client's X-Forwarded-For on lets the client choose.
  assert.equal(
    resolveClientAddress("127.0.0.1", { forwardedFor: "203.0.113.66", realIp: "198.51.100.8" }, trusted),
    "203.0.113.66",
  );
  // Canonical forms: an IPv4-mapped IPv6 hop, ports and brackets.
  assert.equal(
    resolveClientAddress("::ffff:127.0.0.1", { forwardedFor: "[2001:db8::1]:443" }, trusted),
    "2001:db8::1",
  );
  assert.equal(resolveClientAddress("127.0.0.1", { realIp: "198.51.100.8:5000" }, trusted), "198.51.100.8");
});

Deno.test("clientKey() groups an IPv6 /64 and keeps IPv4 addresses", () => {
  assert.equal(clientKey("198.51.100.7"), "198.51.100.7");
  assert.equal(clientKey("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::/64");
  assert.equal(clientKey("2001:db8:1:2:bbbb:cccc:dddd:eeee"), "2001:db8:1:2::/64");
  assert.equal(clientKey("::1"), "0:0:0:0::/64");
  assert.equal(clientKey("local"), "local");
});
