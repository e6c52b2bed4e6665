/**
 * Event hooks (docs/api.md): the admin's `before_<event>`/`after_<event>` command lines, run confined in the user's
 * scope with the runner's limits. `$FILE`, `$SCOPE`, `$TRIGGER`, `$USERNAME` and `$DESTINATION` are exported, and
 * expanded in the arguments while splitting (a file name stays one argument); with a shell set the line goes to
 * the shell untouched and the shell expands the exported variables. A line that would hand a file name to a
 * program as code (lib/runner/hook_safety.ts: refused when saved, but settings stored before that check or
 * imported may hold one) fails without running. A line ending in `&` runs in the background. A failing hook
 * throws a 500; its output goes to the log only. Hook sandboxes are capped per user and in all
 * ({@link HOOK_SLOTS}); more wait for a slot. What a hook wrote is counted: the usage of its scope is recounted
 * when it ends.
 */
import { HttpError } from "../errors.ts";
import { scopeDirOf } from "../fs/gate.ts";
import type { EventHooks, HookContext, HookEvent } from "../hooks.ts";
import { log } from "../log.ts";
import { type RecountDeps, recountUsage } from "../quota.ts";
import { normalizeSettings } from "../settings.ts";
import type { Settings } from "../types.ts";
import { commandEnv, type ExecEnv, runCommand, type RunResult } from "./run.ts";
import { SandboxSlots, type SlotLimits, SlotsFullError } from "./slots.ts";
import { splitWords, WordsError } from "./words.ts";
import { checkHookLine, describeUnsafeHook } from "./hook_safety.ts";

/** Hook sandboxes that run at once: per user, and in all; more wait (at most `maxQueued`). */
export const HOOK_SLOTS: SlotLimits = { perUser: 4, global: 16, maxQueued: 1000 };

/** What the hooks need from the server. */
export interface HookDeps {
  exec: ExecEnv;
  /** Settings are read per operation, so edits take effect at once. */
  store: { findSettings(): Promise<Settings | null> };
  /** Absolute server root. */
  root: string;
  /** Slots of hook sandboxes (default: a new set with HOOK_SLOTS). */
  slots?: SandboxSlots;
  /** Where a hook's writes are counted (quotas): its scope's usage is recounted after it. */
  usage?: RecountDeps;
}

/** One configured hook line, split into what runs and how. */
export interface HookCommand {
  argv: string[];
  /** Trailing `&`: start it and do not wait. */
  background: boolean;
}

/** Builds the argv of a hook line (null for an empty line); throws WordsError for a line that cannot be split. */
export function hookCommand(
  raw: string,
  options: { shell: string[]; vars: Record<string, string> },
): HookCommand | null {
  let line = raw.trim();
  const background = line.endsWith("&");
  if (background) line = line.slice(0, -1).trim();
  if (line === "") return null;
  if (options.shell.length > 0) return { argv: [...options.shell, line], background };
  // Variables expand inside their word (never split again) and never in the program: a file name cannot choose
  // what runs or add arguments. Single-quoted text stays literal, so `sh -c '… "$FILE"'` reads the exported value.
  const words = splitWords(line, { expand: (name) => options.vars[name] });
  return words.length === 0 ? null : { argv: words, background };
}

function describe(r: RunResult): string {
  return r.stop === "exit" ? `exit ${r.code}` : r.stop;
}

async function realScope(
  root: string,
  ctx: HookContext,
): Promise<{ lexical: string; real: string; anchor: string }> {
  const lexical = scopeDirOf({ root, user: ctx.user });
  // floor-exempt: real paths of the files root and the scope; the sandbox mounts the scope through the floor.
  const anchor = await Deno.realPath(root);
  // floor-exempt: as above.
  return { lexical, real: await Deno.realPath(lexical), anchor };
}

/** Runs the hooks of one trigger in order; throws on the first failing foreground hook. */
async function runTrigger(
  deps: HookDeps & { slots: SandboxSlots },
  trigger: string,
  ctx: HookContext,
): Promise<void> {
  const settings = normalizeSettings(await deps.store.findSettings());
  const lines = settings.commands[trigger] ?? [];
  if (lines.length === 0) return;
  const failed = (detail: string, output: string[] = []) => {
    log.warn(`${trigger} hook failed for user "${ctx.user.username}": ${detail}`);
    for (const l of output.slice(-50)) log.warn(`  | ${l}`);
    return new HttpError(500, "hook_failed", `${trigger} hook failed`, { expose: true });
  };
  // None of the trigger's lines runs when one of them would hand a file name to a program as code.
  for (const raw of lines) {
    const unsafe = checkHookLine(raw, settings.shell);
    if (unsafe !== null) throw failed(`not run: ${describeUnsafeHook(trigger, raw, unsafe)}`);
  }
  let scope: { lexical: string; real: string; anchor: string };
  try {
    scope = await realScope(deps.root, ctx);
  } catch (err) {
    throw failed(`scope missing (${(err as Error).message})`);
  }
  // The sandbox mounts the real scope; paths under the lexical scope must point into it.
  const inScope = (p: string) =>
    p === scope.lexical
      ? scope.real
      : p.startsWith(scope.lexical + "/")
      ? scope.real + p.slice(scope.lexical.length)
      : p;
  const vars = {
    FILE: inScope(ctx.file),
    SCOPE: ctx.user.scope,
    TRIGGER: trigger,
    USERNAME: ctx.user.username,
    DESTINATION: inScope(ctx.destination),
  };
  const env = commandEnv(scope.real, vars);
  for (const raw of lines) {
    let cmd: HookCommand | null;
    try {
      cmd = hookCommand(raw, { shell: settings.shell, vars: env });
    } catch (err) {
      if (err instanceof WordsError) throw failed(`cannot split ${JSON.stringify(raw)}: ${err.message}`);
      throw err;
    }
    if (!cmd) continue;
    const argv = cmd.argv;
    const run = deps.slots.run(ctx.user.id, async () => {
      try {
        return await runCommand(deps.exec, {
          argv,
          scope: scope.real,
          anchor: scope.anchor,
          cwd: scope.real,
          env,
        });
      } finally {
        if (deps.usage) await recountUsage(deps.usage, scope.lexical);
      }
    });
    if (cmd.background) {
      run.then((r) => {
        if (r.code !== 0 || r.stop !== "exit") {
          failed(`${JSON.stringify(raw)} (background): ${describe(r)}`, r.lines);
        }
      }).catch((err) => log.warn(`${trigger} hook ${JSON.stringify(raw)} could not run`, err));
      continue;
    }
    const r = await run.catch((err) => {
      if (err instanceof SlotsFullError) throw failed(`${JSON.stringify(raw)}: ${err.message}`);
      throw err;
    });
    if (r.code !== 0 || r.stop !== "exit") throw failed(`${JSON.stringify(raw)}: ${describe(r)}`, r.lines);
  }
}

/** The real event hooks (command execution on). */
export function createEventHooks(deps: HookDeps): EventHooks {
  const all = { ...deps, slots: deps.slots ?? new SandboxSlots(HOOK_SLOTS) };
  return {
    before: (event: HookEvent, ctx: HookContext) => runTrigger(all, `before_${event}`, ctx),
    after: (event: HookEvent, ctx: HookContext) => runTrigger(all, `after_${event}`, ctx),
  };
}
