import assert from "node:assert/strict";
import { BadRequestError } from "../errors.ts";
import { paxRecord, tarOf } from "./_testing.ts";
import { parsePax, readTar } from "./tar_reader.ts";

function streamOf(bytes: Uint8Array, chunk = 7): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + chunk));
      at += chunk;
    },
  });
}

async function entries(bytes: Uint8Array, read: (name: string) => boolean = () => true) {
  const out: [string, string, string][] = [];
  for await (const item of readTar(streamOf(bytes))) {
    const text = item.kind === "file" && read(item.name) ? await new Response(item.content()).text() : "";
    out.push([item.name, item.kind, text]);
  }
  return out;
}

Deno.test("readTar() reads files, folders, links, PAX and GNU long names in odd-sized chunks", async () => {
  const tar = tarOf([
    { name: "dir", type: "5" },
    { name: "dir/a.txt", data: "alpha" },
    { name: "PaxHeaders/b", type: "x", data: paxRecord("path", "ü/" + "p".repeat(120)) },
    { name: "short", data: "pax" },
    { name: "././@LongLink", type: "L", data: "l".repeat(300) + "\0" },
    { name: "short2", data: "long" },
    { name: "link", type: "2", link: "/etc/passwd" },
    { name: "old-style-dir/", type: "0" },
  ]);
  assert.deepEqual(await entries(tar), [
    ["dir", "dir", ""],
    ["dir/a.txt", "file", "alpha"],
    ["ü/" + "p".repeat(120), "file", "pax"],
    ["l".repeat(300), "file", "long"],
    ["link", "symlink", ""],
    ["old-style-dir/", "dir", ""],
  ]);
});

Deno.test("readTar() skips the content a consumer leaves unread", async () => {
  const tar = tarOf([{ name: "big", data: "x".repeat(2000) }, { name: "next", data: "n" }]);
  assert.deepEqual(await entries(tar, (name) => name !== "big"), [["big", "file", ""], [
    "next",
    "file",
    "n",
  ]]);
});

Deno.test("readTar() refuses damaged archives with a 400", async () => {
  const good = tarOf([{ name: "a", data: "abc" }]);
  const badSum = good.slice();
  badSum[0] = "b".charCodeAt(0);
  const truncated = good.slice(0, 512 + 1);
  for (const [label, bytes] of [["checksum", badSum], ["truncated", truncated]] as const) {
    await assert.rejects(entries(bytes), BadRequestError, label);
  }
  assert.throws(() => parsePax(new TextEncoder().encode("99 path=x\n")), BadRequestError);
  const hugePax = tarOf([{ name: "p", type: "x", data: "", size: 8 << 20 }]);
  await assert.rejects(entries(hugePax), /extended header too large/);
});
