import assert from "node:assert/strict";
import { ForbiddenError } from "../errors.ts";
import {
  ensureDirBeneath,
  floorMode,
  lstat,
  openFile,
  pinEntry,
  pinObject,
  readDirNames,
  readTextFile,
  renameNoReplace,
} from "./floor.ts";

async function tree() {
  const base = await Deno.realPath(await Deno.makeTempDir());
  const root = `${base}/root`;
  await Deno.mkdir(`${root}/alice/d`, { recursive: true });
  await Deno.mkdir(`${base}/outside`);
  await Deno.writeTextFile(`${root}/alice/d/f.txt`, "inside");
  await Deno.writeTextFile(`${base}/outside/f.txt`, "SECRET");
  return { base, root, [Symbol.asyncDispose]: () => Deno.remove(base, { recursive: true }) };
}

Deno.test("floor: pins through descriptors here (Linux, FFI)", () => {
  assert.equal(floorMode(), "openat2");
});

Deno.test("floor: a pinned object is read through its descriptor", async () => {
  await using t = await tree();
  using pin = pinObject(t.root, `${t.root}/alice/d/f.txt`);
  assert.match(pin.path, /^\/proc\/self\/fd\/\d+$/);
  assert.equal(await readTextFile(pin), "inside");
});

Deno.test("floor: a folder swapped for a link after the check is refused, never followed", async () => {
  await using t = await tree();
  await Deno.rename(`${t.root}/alice/d`, `${t.root}/alice/d.real`);
  await Deno.symlink(`${t.base}/outside`, `${t.root}/alice/d`);
  assert.throws(() => pinObject(t.root, `${t.root}/alice/d/f.txt`), ForbiddenError);
  assert.throws(() => pinEntry(t.root, `${t.root}/alice/d/f.txt`), ForbiddenError);
  // The last component as a link: the object pin refuses it, the entry pin names the link itself.
  await Deno.symlink(`${t.base}/outside/f.txt`, `${t.root}/alice/last`);
  assert.throws(() => pinObject(t.root, `${t.root}/alice/last`), ForbiddenError);
  using entry = pinEntry(t.root, `${t.root}/alice/last`);
  assert.equal((await lstat(entry)).isSymlink, true);
});

Deno.test("floor: a link inside the root is refused too (the gate resolves links, the floor takes real paths)", async () => {
  await using t = await tree();
  await Deno.symlink(`${t.root}/alice/d`, `${t.root}/alice/inner`);
  assert.throws(() => pinObject(t.root, `${t.root}/alice/inner/f.txt`), ForbiddenError);
  using ok = pinObject(t.root, `${t.root}/alice/d`);
  assert.deepEqual(await readDirNames(ok), ["f.txt"]);
});

Deno.test("floor: paths outside the anchor are refused before any open", async () => {
  await using t = await tree();
  assert.throws(() => pinObject(t.root, `${t.base}/outside/f.txt`), ForbiddenError);
  assert.throws(() => pinObject(t.root, `${t.root}x/f.txt`), ForbiddenError);
});

Deno.test("floor: a held pin keeps naming the object after the path is swapped", async () => {
  await using t = await tree();
  using pin = pinObject(t.root, `${t.root}/alice/d`);
  await Deno.rename(`${t.root}/alice/d`, `${t.root}/alice/d.real`);
  await Deno.symlink(`${t.base}/outside`, `${t.root}/alice/d`);
  using file = await openFile(pinEntryOfPin(pin.path, "f.txt"));
  assert.equal(new TextDecoder().decode(await new Response(file.readable).arrayBuffer()), "inside");
});

function pinEntryOfPin(dir: string, name: string) {
  return { path: `${dir}/${name}` } as unknown as Parameters<typeof openFile>[0];
}

Deno.test("floor: a FIFO is refused before an open that would block", async () => {
  await using t = await tree();
  new Deno.Command("mkfifo", { args: [`${t.root}/alice/fifo`] }).outputSync();
  using pin = pinObject(t.root, `${t.root}/alice/fifo`);
  await assert.rejects(() => openFile(pin), ForbiddenError);
});

Deno.test("floor: ensureDirBeneath creates missing folders and refuses a link on the way", async () => {
  await using t = await tree();
  ensureDirBeneath(t.root, `${t.root}/bob/home`);
  assert.equal((await Deno.lstat(`${t.root}/bob/home`)).isDirectory, true);
  await Deno.symlink(`${t.base}/outside`, `${t.root}/carol`);
  assert.throws(() => ensureDirBeneath(t.root, `${t.root}/carol/home`), ForbiddenError);
  assert.equal(await Deno.lstat(`${t.base}/outside/home`).then(() => true, () => false), false);
});

Deno.test("floor: renameNoReplace never replaces", async () => {
  await using t = await tree();
  await Deno.writeTextFile(`${t.root}/alice/g.txt`, "other");
  using from = pinEntry(t.root, `${t.root}/alice/g.txt`);
  using to = pinEntry(t.root, `${t.root}/alice/d/f.txt`);
  assert.throws(() => renameNoReplace(from, to), Deno.errors.AlreadyExists);
  assert.equal(await Deno.readTextFile(`${t.root}/alice/d/f.txt`), "inside");
  using free = pinEntry(t.root, `${t.root}/alice/d/new.txt`);
  assert.equal(renameNoReplace(from, free), true);
  assert.equal(await Deno.readTextFile(`${t.root}/alice/d/new.txt`), "other");
});

Deno.test("floor: without the FFI permission it cannot pin and says so (the server warns at start)", async () => {
  const script = `import { floorMode, pinObject } from ${
    JSON.stringify(new URL("./floor.ts", import.meta.url).href)
  };
console.log(floorMode(), pinObject("/", "/tmp").path);`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-check", script],
    env: { NO_COLOR: "1", DENO_NO_PROMPT: "1" },
    clearEnv: false,
  }).output();
  // `deno eval` has every permission; run the same with FFI denied.
  const denied = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-check",
      "--allow-read",
      "--deny-ffi",
      `data:application/typescript,${encodeURIComponent(script)}`,
    ],
    env: { NO_COLOR: "1", DENO_NO_PROMPT: "1" },
  }).output();
  assert.match(new TextDecoder().decode(out.stdout), /^openat2 \/proc\/self\/fd\/\d+/);
  assert.equal(
    new TextDecoder().decode(denied.stdout).trim(),
    "paths /tmp",
    new TextDecoder().decode(denied.stderr),
  );
});
