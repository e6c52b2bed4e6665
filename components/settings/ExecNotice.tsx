import type { ExecStatus } from "../../lib/types.ts";

/** How commands run on this server (read-only), and the warning that goes with a shell. */
export function ExecNotice(
  props: { status?: ExecStatus; shell: string[]; t: (key: string, vars?: Record<string, string>) => string },
) {
  const { status, t } = props;
  if (!status) return null;
  const lines: string[] = [];
  if (status.mode === "disabled") lines.push(t("settings.exec.disabled"));
  else if (status.mode === "unconfined") lines.push(t("settings.exec.unconfined"));
  else {
    lines.push(t("settings.exec.confined", { sandbox: status.sandbox }));
    if (status.processLimit === "none") lines.push(t("settings.exec.noProcessLimit"));
    if (status.memoryLimit === "none") lines.push(t("settings.exec.noMemoryLimit"));
  }
  if (status.mode !== "disabled" && status.network) lines.push(t("settings.exec.network"));
  return (
    <div class="settings-exec" data-testid="exec-status" data-mode={status.mode}>
      {lines.map((l) => <p key={l} class="settings-hint">{l}</p>)}
      {status.mode !== "disabled" && props.shell.length > 0 && (
        <p class="settings-warning" role="note" data-testid="shell-warning">
          {t("settings.exec.shellWarning")}
        </p>
      )}
    </div>
  );
}
