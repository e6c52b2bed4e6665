import assert from "node:assert/strict";
import { ensureBuilt, isBuildFresh } from "./build.ts";

const HERE = new URL(".", import.meta.url).pathname.replace(/\/$/, "");
const PROJECT = HERE.replace(/\/framework$/, "");

/** A tiny project next to this one: one island, the real framework and node_modules through symlinks. */
async function tinyProject(): Promise<string> {
  const root = await Deno.makeTempDir();
  const config = JSON.parse(await Deno.readTextFile(`${PROJECT}/deno.json`));
  config.nodeModulesDir = "manual";
  await Deno.writeTextFile(`${root}/deno.json`, JSON.stringify(config));
  await Deno.copyFile(`${PROJECT}/deno.lock`, `${root}/deno.lock`);
  await Deno.symlink(`${PROJECT}/node_modules`, `${root}/node_modules`);
  await Deno.symlink(`${PROJECT}/framework`, `${root}/framework`);
  await Deno.mkdir(`${root}/islands`);
  await Deno.mkdir(`${root}/routes`);
  await Deno.writeTextFile(
    `${root}/islands/Tiny.tsx`,
    'import { island } from "../framework/island.tsx";\nexport const Tiny = island(() => <b>tiny</b>);\n',
  );
  await Deno.writeTextFile(`${root}/routes/index.tsx`, "export default () => null;\n");
  return root;
}

Deno.test({
  name: "two builds started at once: one bundles, the other waits for it and finds the bundles fresh",
  async fn() {
    const root = await tinyProject();
    try {
      const runs = [0, 1].map(() =>
        new Deno.Command(Deno.execPath(), {
          args: ["run", "-A", `${HERE}/build.ts`, "--root", root],
          cwd: root,
          stdout: "piped",
          stderr: "piped",
        }).output()
      );
      const outs = await Promise.all(runs);
      const text = outs.map((o) => new TextDecoder().decode(o.stdout) + new TextDecoder().decode(o.stderr));
      for (const [i, o] of outs.entries()) assert.ok(o.success, text[i]);
      const verdicts = text.map((t) => t.match(/build: (bundled|up to date)/)?.[1]).sort();
      assert.deepEqual(verdicts, ["bundled", "up to date"], text.join("\n---\n"));
      assert.ok((await Deno.stat(`${root}/_build/islands/Tiny.js`)).isFile);
      await assert.rejects(() => Deno.stat(`${root}/_build/.lock`), Deno.errors.NotFound, "lock released");
      assert.match(await Deno.readTextFile(`${root}/routes.gen.ts`), /"islands\/Tiny.tsx"/);
      assert.equal(await isBuildFresh(root), true);
      assert.equal(await ensureBuilt({ root }), false, "a start with fresh bundles does not build");
      await Deno.remove(`${root}/_build`, { recursive: true });
      assert.equal(await isBuildFresh(root), false, "missing bundles are stale");
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
