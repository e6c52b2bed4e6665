/**
 * `deno task import-filebrowser PATH/filebrowser.db [--dry-run] [--replace] [server options]`: imports a
 * filebrowser database into ours (docs/migration.md). Server options such as `--database` pick the KV store.
 */
import { loadConfig, OPTIONS } from "../config.ts";
import { formatReport, importFilebrowser } from "../lib/import/mod.ts";
import { HttpError } from "../lib/errors.ts";
import { defaultSettings } from "../lib/settings.ts";
import { openKv } from "../lib/storage/mod.ts";

const USAGE =
  "Usage: deno task import-filebrowser PATH/filebrowser.db [--dry-run] [--replace] [--database KV]";

// `--database x` and `-d x` take the next argument; `--database=x` and boolean flags do not.
function takesValue(arg: string): boolean {
  const long = arg.match(/^--([a-z-]+)$/), short = arg.match(/^-([a-zA-Z])$/);
  const spec = OPTIONS.find((o) => (long && o.name === long[1]) || (short && o.short === short[1]));
  return spec?.type === "string";
}

/** Runs the command; returns the exit code. `write` receives the output lines. */
export async function runImport(
  args: string[],
  write: (line: string) => void,
  env: Record<string, string | undefined> = Deno.env.toObject(),
): Promise<number> {
  const rest: string[] = [];
  let dryRun = false, replace = false, path = "";
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--dry-run") dryRun = true;
    else if (a === "--replace") replace = true;
    else if (a === "-h" || a === "--help") {
      write(USAGE);
      return 0;
    } else if (!a.startsWith("-") && !path) path = a;
    else {
      rest.push(a);
      if (takesValue(a) && i + 1 < args.length) rest.push(args[++i]);
    }
  }
  if (!path) {
    write(USAGE);
    return 2;
  }
  let config;
  try {
    config = loadConfig(rest, env);
  } catch (err) {
    write((err as Error).message);
    return 2;
  }
  let file: Uint8Array;
  try {
    file = await Deno.readFile(path);
  } catch (err) {
    write(`Cannot read ${path}: ${(err as Error).message}`);
    return 1;
  }
  if (!/^https?:\/\//.test(config.database)) {
    await Deno.mkdir(config.database.replace(/\/[^/]*$/, "") || "/", { recursive: true });
  }
  const kv = await openKv(config.database);
  try {
    const report = await importFilebrowser(kv, file, {
      dryRun,
      replace,
      source: path.split("/").pop(),
      initialSettings: defaultSettings({
        authMethod: config.authMethod,
        minPasswordLength: config.minPasswordLength,
      }),
    });
    for (const line of formatReport(report)) write(line);
    return 0;
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    write(`${path}: ${err.message}. Nothing was imported.`);
    return 1;
  } finally {
    kv.close();
  }
}

if (import.meta.main) {
  const enc = new TextEncoder();
  const code = await runImport(Deno.args, (line) => Deno.stdout.writeSync(enc.encode(line + "\n")));
  Deno.exit(code);
}
