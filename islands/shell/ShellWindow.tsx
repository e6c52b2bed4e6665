import { useEffect, useMemo, useRef, useState } from "react";
import { Icon } from "../../components/Icon.tsx";
import { X } from "../../components/icons.ts";
import { CircleStop, Eraser, SquareTerminal } from "../../components/shell/icons.ts";
import type { PageView } from "../../client/hooks.ts";
import { CommandHistory } from "../../client/shell/history.ts";
import { commandFolder, commandUrl, endNote, runCommand } from "../../client/api/command.ts";
import type { RunningCommand } from "../../client/api/command.ts";
import { shellOpen } from "../../client/shell/state.ts";
import { currentPath, requestReload } from "../../client/state.ts";
import { PromptLine } from "./PromptLine.tsx";
import { usePanelHeight } from "./use_panel_height.ts";
import { useTerminal } from "./use_terminal.ts";

const dim = (s: string) => `\x1b[2m${s}\x1b[22m\r\n`;
const red = (s: string) => `\x1b[31m${s}\x1b[39m\r\n`;
const promptOf = (folder: string) => `\x1b[1;34m${folder}\x1b[22;39m $ `;

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

function focusToggle(): void {
  // On mobile the toggle sits in the closed "more" menu: its button takes the focus instead.
  const el = document.querySelector<HTMLElement>('[data-action="shell"]') ??
    document.querySelector<HTMLElement>(".more-btn");
  el?.focus();
}

/** The shell panel itself (mounted when first opened, then only hidden, so output and a running command stay). */
export function ShellWindow(props: { open: boolean; page: PageView }) {
  const { t, config, user } = props.page;
  const folder = commandFolder(currentPath.value);
  const host = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const run = useRef<RunningCommand | null>(null);
  const [running, setRunning] = useState<string | null>(null);
  const history = useMemo(() => new CommandHistory(storage(), `shell.history.${user?.id ?? 0}`), [user?.id]);
  const { height, divider } = usePanelHeight(props.open);

  function interrupt() {
    if (run.current) return run.current.stop();
    // Nothing runs: like a shell, Ctrl+C abandons the typed line.
    const el = input.current;
    term.current?.write(`${promptOf(folder)}${el?.value ?? ""}^C\r\n`);
    if (el) el.value = "";
  }

  function insertTyped(key: string) {
    const el = input.current;
    if (!el || el.readOnly) return;
    el.focus();
    el.setRangeText(key, el.selectionStart ?? el.value.length, el.selectionEnd ?? el.value.length, "end");
  }

  const { term, ready } = useTerminal(host, {
    cssUrl: `${config.BaseURL}/_islands/xterm.css?v=${encodeURIComponent(config.Version)}`,
    strings: { label: t("shell.output"), tooMuchOutput: t("shell.tooMuchOutput") },
    onInterrupt: interrupt,
    onType: insertTyped,
  });

  function exec(line: string) {
    const out = term.current;
    const cmd = line.trim();
    if (!out) return;
    // The panel's own commands stay out of the history.
    history.rewind();
    if (cmd === "clear") return out.clear();
    if (cmd === "exit") return close();
    out.write(`${promptOf(folder)}${line}\r\n`);
    if (!cmd) return;
    history.push(cmd);
    setRunning(cmd);
    run.current = runCommand(commandUrl(location, config.BaseURL, folder), cmd, {
      onOutput: (text) => term.current?.write(text),
      onEnd(end) {
        run.current = null;
        setRunning(null);
        const note = endNote(end);
        if (end.how === "stopped") term.current?.write("^C\r\n");
        else if (note) term.current?.write((end.status ? dim : red)(t(note.key, note.vars)));
        // The command may have changed files of the folder shown.
        requestReload();
      },
    });
  }

  function close() {
    shellOpen.value = false;
    focusToggle();
  }

  useEffect(() => {
    if (props.open && ready) input.current?.focus();
  }, [props.open, ready]);
  useEffect(() => {
    // A command that outlives the panel is interrupted with it.
    return () => run.current?.stop();
  }, []);

  return (
    <section
      class="shell-panel"
      hidden={!props.open}
      aria-labelledby="shell-title"
      style={{ height: `${height}px` }}
      data-testid="shell"
      data-ready={ready ? "true" : undefined}
      data-running={running ? "true" : undefined}
    >
      <div
        class="shell-divider"
        role="separator"
        aria-orientation="horizontal"
        aria-label={t("shell.resize")}
        tabIndex={0}
        data-testid="shell-divider"
        {...divider}
      />
      <div class="shell-head">
        <Icon node={SquareTerminal} size={18} />
        <h2 class="shell-title" id="shell-title">{t("shell.title")}</h2>
        <span class="shell-status" role="status" data-testid="shell-status">
          {running && t("shell.running", { command: running })}
        </span>
        {!running && <span class="shell-hint" title={t("shell.welcome")}>{t("shell.welcome")}</span>}
        {running && (
          <button type="button" class="action small stop" title={t("shell.stop")} onClick={interrupt}>
            <Icon node={CircleStop} size={18} label={t("shell.stop")} />
          </button>
        )}
        <button
          type="button"
          class="action small"
          title={t("shell.clear")}
          onClick={() => term.current?.clear()}
        >
          <Icon node={Eraser} size={18} label={t("shell.clear")} />
        </button>
        <button type="button" class="action small" title={t("shell.close")} onClick={close}>
          <Icon node={X} size={18} label={t("shell.close")} />
        </button>
      </div>
      <div class="shell-term" dir="ltr" ref={host} />
      <PromptLine
        folder={folder}
        busy={!!running || !ready}
        history={history}
        inputRef={input}
        t={t}
        onRun={exec}
        onInterrupt={interrupt}
      />
    </section>
  );
}
