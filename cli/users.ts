/**
 * `deno task users`: list, add, update and remove accounts in the server's database, with or without the server
 * running (Deno KV on a file takes writers from several processes). Server options (--database, --root, FB_*) are
 * read as by the server; exit code 0 on success, 1 when the command fails, 2 on a usage error.
 */
import { loadConfig, OPTIONS } from "../config.ts";
import { HttpError } from "../lib/errors.ts";
import { openKv } from "../lib/storage/mod.ts";
import { users } from "../lib/storage/mod.ts";
import { accountContext, addAccount, removeAccount, updateAccount } from "../lib/user_admin.ts";
import type { AccountChanges } from "../lib/user_admin.ts";

const USAGE = `Usage: deno task users <command> [options]

Commands:
  ls                                              list the accounts
  add NAME --password P [--admin] [--scope S]     add an account (--password - reads it from stdin)
  update NAME [--password P] [--admin | --no-admin] [--scope S]
                                                  change an account and end its sessions
  rm NAME                                         remove an account

Server options are read as by the server, e.g. --database data/filebrowser.kv (FB_DATABASE), --root (FB_ROOT).`;

/** Writes one line to stdout or stderr (this is a command-line tool: its output is the point). */
function say(line: string, options: { error?: boolean } = {}): void {
  // deno-lint-ignore no-console -- command output, not logging
  (options.error ? console.error : console.log)(line);
}

class UsageError extends Error {}
class CommandError extends Error {}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) return false;
    throw err;
  }
}

interface Parsed {
  command: string;
  name?: string;
  changes: AccountChanges;
  serverArgs: string[];
}

function parseArgs(args: string[]): Parsed {
  const positional: string[] = [];
  const changes: AccountChanges = {};
  const serverArgs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const value = () => {
      if (i + 1 >= args.length) throw new UsageError(`Option "${arg}" needs a value`);
      return args[++i];
    };
    if (arg === "--password") changes.password = value();
    else if (arg.startsWith("--password=")) changes.password = arg.slice("--password=".length);
    else if (arg === "--scope") changes.scope = value();
    else if (arg.startsWith("--scope=")) changes.scope = arg.slice("--scope=".length);
    else if (arg === "--admin") changes.admin = true;
    else if (arg === "--no-admin") changes.admin = false;
    else if (arg.startsWith("-") && arg !== "-") {
      // A server option: hand it (and its value) to the server's own parser.
      serverArgs.push(arg);
      const spec = OPTIONS.find((o) => `--${o.name}` === arg || (o.short && `-${o.short}` === arg));
      if (spec?.type === "string") serverArgs.push(value());
    } else positional.push(arg);
  }
  const [command = "", name, ...extra] = positional;
  if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra[0]}"`);
  return { command, name, changes, serverArgs };
}

async function readPassword(changes: AccountChanges): Promise<void> {
  if (changes.password !== "-") return;
  const text = await new Response(Deno.stdin.readable).text();
  changes.password = text.replace(/\r?\n$/, "");
}

async function run(args: string[]): Promise<number> {
  if (args.some((a) => a === "-h" || a === "--help") || args[0] === "help") {
    say(USAGE);
    return 0;
  }
  const { command, name, changes, serverArgs } = parseArgs(args);
  if (command === "") throw new UsageError("No command given");
  if (!["ls", "add", "update", "rm"].includes(command)) throw new UsageError(`Unknown command "${command}"`);
  if (command !== "ls" && !name) throw new UsageError(`"${command}" needs a user name`);
  if (command === "add" && changes.password === undefined) throw new UsageError(`"add" needs --password`);
  if (command === "update" && Object.keys(changes).length === 0) {
    throw new UsageError(`"update" needs --password, --admin, --no-admin or --scope`);
  }
  const config = loadConfig(serverArgs);
  await readPassword(changes);
  if (!/^https?:\/\//.test(config.database) && !await isFile(config.database)) {
    // Opening would create an empty database: a mistyped path must not look like a server without users.
    throw new CommandError(`Cannot open --database "${config.database}": no such file`);
  }
  const kv = await openKv(config.database);
  try {
    const ctx = await accountContext(kv, config);
    if (command === "ls") {
      for (const u of await users.listUsers(kv)) {
        say(`${String(u.id).padStart(4)}  ${u.perm.admin ? "admin" : "user "}  ${u.username}  ${u.scope}`);
      }
    } else if (command === "add") {
      const user = await addAccount(ctx, name!, { ...changes, password: changes.password! });
      say(`added "${user.username}" (id ${user.id}${user.perm.admin ? ", admin" : ""}, scope ${user.scope})`);
    } else if (command === "update") {
      const user = await updateAccount(ctx, name!, changes);
      say(`updated "${user.username}"; its sessions have ended`);
    } else {
      await removeAccount(ctx, name!);
      say(`removed "${name}"`);
    }
    return 0;
  } finally {
    kv.close();
  }
}

try {
  Deno.exit(await run(Deno.args));
} catch (err) {
  if (err instanceof UsageError) {
    say(`${err.message} (deno task users --help lists the commands)`, { error: true });
    Deno.exit(2);
  }
  // Config errors (bad flag values) are usage errors too; refusals from lib/ fail the command.
  const message = err instanceof HttpError || err instanceof Error ? err.message : String(err);
  say(message.split("\n")[0], { error: true });
  Deno.exit(err instanceof HttpError || err instanceof CommandError ? 1 : 2);
}
