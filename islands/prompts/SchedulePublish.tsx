import { useEffect, useState } from "react";
import { PromptCard } from "../../components/PromptCard.tsx";
import { ScheduleList } from "../../components/publish/ScheduleList.tsx";
import { PublishStyles } from "../../components/publish/styles.tsx";
import { editorState } from "../../client/editor/state.ts";
import { usePage } from "../../client/hooks.ts";
import type { PromptProps } from "../../client/prompts.ts";
import * as publish from "../../client/publish.ts";
import * as publishApi from "../../client/api/publish.ts";
import { requestReload } from "../../client/state.ts";
import { showError, showSuccess } from "../../client/toasts.ts";
import { formatDate } from "../../lib/format.ts";
import { intlTag } from "../../lib/i18n.ts";
import type { BuildLog, PostInfo, PublishSchedule } from "../../lib/types.ts";

/** Props of the schedule-publish prompt: the post, or none to only list the schedules. */
export interface SchedulePublishProps {
  path?: string;
}

const nameOf = (path: string) => path.slice(path.lastIndexOf("/") + 1);

/** The "schedule publish" prompt: a date-time picker in the user's time zone, publish now, and the schedules. */
export function SchedulePublishPrompt(props: PromptProps<SchedulePublishProps>) {
  const { t, locale } = usePage();
  const [path, setPath] = useState(props.props.path ?? "");
  const [info, setInfo] = useState<PostInfo | null>(null);
  const [schedules, setSchedules] = useState<PublishSchedule[] | null>(null);
  const [when, setWhen] = useState(() => publish.toPickerValue(publish.defaultPublishTime(Date.now())));
  const [error, setError] = useState("");
  const [failed, setFailed] = useState<PublishSchedule | null>(null);
  const [log, setLog] = useState<{ name: string; log: BuildLog } | null>(null);
  const [busy, setBusy] = useState(false);

  const refresh = () =>
    publishApi.listSchedules().then(
      setSchedules,
      (err) => setError(publish.publishCallMessage(err, "now", "")),
    );
  useEffect(() => void refresh(), []);
  useEffect(() => {
    setInfo(null);
    if (!path) return;
    publishApi.getPostInfo(path).then((i) => {
      setInfo(i);
      if (i.schedule?.state === "scheduled") setWhen(publish.toPickerValue(Date.parse(i.schedule.date)));
    }, (err) => setError(publish.publishCallMessage(err, "now", nameOf(path))));
  }, [path]);

  const iso = publish.fromPickerValue(when);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const full = iso
    ? new Intl.DateTimeFormat(intlTag(locale), { dateStyle: "full", timeStyle: "short" })
    : null;
  const run = async (call: "schedule" | "now") => {
    if (busy || !path || (call === "schedule" && !iso)) return;
    setBusy(true);
    setError("");
    setFailed(null);
    try {
      if (call === "schedule") {
        await publishApi.schedulePublish(path, iso!);
        showSuccess(t("publish.schedule.done", { name: nameOf(path) }));
      } else {
        const done = await publishApi.publishNow(path, publish.isoWithOffset(new Date()));
        if (done.state === "failed") {
          setFailed(done);
          setError(publish.scheduleErrorMessage(done));
        } else showSuccess(t("publish.schedule.published", { name: nameOf(path) }));
        // The open editor still holds the old text: reload it so a later save cannot undo the publish.
        if (editorState.value?.path === path) location.reload();
        else requestReload();
      }
      setInfo(await publishApi.getPostInfo(path));
      await refresh();
    } catch (err) {
      setError(publish.publishCallMessage(err, call, nameOf(path)));
    } finally {
      setBusy(false);
    }
  };
  const showLog = (s: PublishSchedule) =>
    publishApi.getBuildLog(s.id).then(
      (l) => setLog({ name: nameOf(s.path), log: l }),
      (err) => showError(err),
    );
  const cancel = (s: PublishSchedule) =>
    publishApi.cancelSchedule(s.id).then(
      () => refresh(),
      (err) => showError(err, t("publish.schedule.cancel")),
    );

  if (log) {
    return (
      <PromptCard
        title={t("publish.log.title", { name: log.name })}
        testId="publish-log"
        actions={
          <button type="button" class="button" onClick={() => setLog(null)}>{t("publish.log.back")}</button>
        }
      >
        <PublishStyles />
        <p class="publish-hint">{t("publish.log.exit", { code: log.log.code })}</p>
        <pre
          class="publish-log"
          data-testid="publish-log-text"
        >{log.log.output || t("publish.log.empty")}</pre>
      </PromptCard>
    );
  }
  const scheduled = info?.schedule?.state === "scheduled";
  const noFrontMatter = info !== null && info.format === null;
  const canAct = !!path && info !== null && !noFrontMatter && !busy;
  const state = !info || noFrontMatter
    ? ""
    : scheduled
    ? t("publish.state.scheduledFor", { date: formatDate(info.schedule!.date, locale) })
    : info.draft === false
    ? t("publish.state.publishedOn", { date: info.date ? formatDate(info.date, locale) : "?" })
    : t("publish.state.draft");
  return (
    <form onSubmit={(e) => (e.preventDefault(), run("schedule"))}>
      <PromptCard
        title={t(path ? "publish.schedule.title" : "publish.schedule.listTitle")}
        testId="schedule-publish"
        actions={
          <>
            <button type="button" class="button flat" onClick={props.close}>{t("buttons.close")}</button>
            {path && (
              <button type="button" class="button flat" disabled={!canAct} onClick={() => run("now")}>
                {t("publish.schedule.now")}
              </button>
            )}
            {path && (
              <button type="submit" class="button" disabled={!canAct || !iso}>
                {t(scheduled ? "publish.schedule.reschedule" : "publish.schedule.submit")}
              </button>
            )}
          </>
        }
      >
        <PublishStyles />
        <div class="publish-form">
          {path && <p class="publish-post" data-testid="publish-post">{nameOf(path)}</p>}
          {state && <p class="publish-state muted" data-testid="publish-state">{state}</p>}
          {noFrontMatter && <p class="publish-error" role="alert">{t("publish.errors.frontMatter")}</p>}
          {path && (
            <label class="field">
              <span>{t("publish.schedule.when")}</span>
              <input
                class="input"
                type="datetime-local"
                name="when"
                autoFocus
                value={when}
                min={publish.toPickerValue(Date.now())}
                onInput={(e) => setWhen((e.currentTarget as HTMLInputElement).value)}
              />
            </label>
          )}
          {path && (
            <p class="publish-hint" data-testid="publish-zone">
              {t("publish.schedule.zone", { zone, date: iso && full ? full.format(Date.parse(iso)) : "—" })}
            </p>
          )}
          {error && (
            <p class="publish-error" role="alert" data-testid="publish-error">
              {error} {failed?.hasLog && (
                <button
                  type="button"
                  class="button flat"
                  onClick={() => showLog(failed)}
                >
                  {t("publish.schedule.log")}
                </button>
              )}
            </p>
          )}
          <h3 class="publish-section-title">{t("publish.schedule.list")}</h3>
          {schedules === null ? <p class="muted">{t("files.loading")}</p> : (
            <ScheduleList
              schedules={schedules}
              locale={locale}
              t={t}
              onReschedule={(s) => {
                setError("");
                setPath(s.path);
                setWhen(publish.toPickerValue(Date.parse(s.date)));
              }}
              onCancel={cancel}
              onLog={showLog}
            />
          )}
        </div>
      </PromptCard>
    </form>
  );
}
