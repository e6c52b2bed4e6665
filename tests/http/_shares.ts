/** Helpers of the share HTTP tests: files, stored links, statuses and zip contents. */
import assert from "node:assert/strict";
import { type TestApp } from "../_helpers.ts";
import { shares } from "../../lib/storage/mod.ts";
import { hashPassword } from "../../lib/auth/passwords.ts";

export const SHARER = { share: true, download: true };

export async function put(path: string, text: string): Promise<void> {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(path, text);
}

export async function link(
  f: TestApp,
  spec: { hash: string; path: string; user: string; password?: string; token?: string; expire?: number },
): Promise<void> {
  await shares.createShare(f.deps.kv, {
    hash: spec.hash,
    path: spec.path,
    userID: f.users[spec.user].id,
    expire: spec.expire ?? 0,
    passwordHash: spec.password ? await hashPassword(spec.password) : "",
    token: spec.token ?? "",
  });
}

export async function status(
  f: TestApp,
  path: string,
  init: RequestInit & { as?: string } = {},
): Promise<number> {
  const r = await f.request(path, init);
  await r.body?.cancel();
  return r.status;
}

export async function unzipNames(bytes: Uint8Array, dir: string): Promise<{ names: string[]; all: string }> {
  await Deno.writeFile(`${dir}/out.zip`, bytes);
  const list = new Deno.Command("zipinfo", { args: ["-1", `${dir}/out.zip`], stdout: "piped" }).outputSync();
  assert.equal(list.code, 0, "zipinfo reads the archive");
  const all = new Deno.Command("unzip", { args: ["-p", `${dir}/out.zip`], stdout: "piped" }).outputSync();
  const dec = new TextDecoder();
  return { names: dec.decode(list.stdout).trim().split("\n").filter(Boolean), all: dec.decode(all.stdout) };
}
