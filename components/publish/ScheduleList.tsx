import { formatDate, formatRelative } from "../../lib/format.ts";
import type { PublishSchedule } from "../../lib/types.ts";

/** Props of ScheduleList. */
export interface ScheduleListProps {
  schedules: PublishSchedule[];
  locale: string;
  t: (key: string, vars?: Record<string, string | number>) => string;
  onReschedule: (s: PublishSchedule) => void;
  onCancel: (s: PublishSchedule) => void;
  onLog: (s: PublishSchedule) => void;
}

/** The user's scheduled and recently published posts: time, state, and reschedule / cancel / log buttons. */
export function ScheduleList(props: ScheduleListProps) {
  const { t, locale } = props;
  if (props.schedules.length === 0) return <p class="publish-hint">{t("publish.schedule.none")}</p>;
  return (
    <ul class="publish-list" data-testid="publish-schedules">
      {props.schedules.map((s) => (
        <li key={s.id} data-path={s.path} data-state={s.state}>
          <span class="publish-item">
            <span class="publish-name">{s.path.slice(s.path.lastIndexOf("/") + 1)}</span>
            <span class="publish-when" title={formatDate(s.date, locale)}>
              {formatDate(s.date, locale)} · {formatRelative(s.date, { locale })}
            </span>
          </span>
          <span class="publish-badge" data-state={s.state}>{t(`publish.state.${s.state}`)}</span>
          <span class="publish-actions">
            {s.state === "scheduled" && (
              <>
                <button type="button" class="button flat" onClick={() => props.onReschedule(s)}>
                  {t("publish.schedule.reschedule")}
                </button>
                <button type="button" class="button flat" onClick={() => props.onCancel(s)}>
                  {t("publish.schedule.cancel")}
                </button>
              </>
            )}
            {s.hasLog && (
              <button type="button" class="button flat" onClick={() => props.onLog(s)}>
                {t("publish.schedule.log")}
              </button>
            )}
          </span>
        </li>
      ))}
    </ul>
  );
}
