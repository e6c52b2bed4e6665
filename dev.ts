/** `deno task dev`: rebuild islands and restart the server on every change (arguments go to main.ts). */
import { devLoop } from "./framework/dev.ts";

await devLoop({
  entry: "main.ts",
  args: Deno.args,
  watch: [
    "routes",
    "islands",
    "components",
    "client",
    "lib",
    "framework",
    "middleware",
    "locales",
    "static",
    "app.ts",
    "config.ts",
    "define.ts",
    "main.ts",
  ],
});
