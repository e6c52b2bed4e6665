import { Icon } from "./Icon.tsx";
import { FileQuestionMark, Lock, ServerCrash, WifiOff } from "./icons.ts";

/** Props of ErrorView. */
export interface ErrorViewProps {
  /** HTTP status; 0 means the server could not be reached. */
  status: number;
  t: (key: string) => string;
  /** Link back to the files (base-URL aware); omitted on pages without a session. */
  homeUrl?: string;
}

/** The status codes with their own screen; anything else shows the 500 screen. */
export function errorKind(status: number): "0" | "403" | "404" | "500" {
  return status === 0 ? "0" : status === 403 ? "403" : status === 404 ? "404" : "500";
}

/** The error screen for a status (0, 403, 404, else 500). */
export function ErrorView(props: ErrorViewProps) {
  const kind = errorKind(props.status);
  const icon = kind === "0"
    ? WifiOff
    : kind === "403"
    ? Lock
    : kind === "404"
    ? FileQuestionMark
    : ServerCrash;
  return (
    <section class="error-view" role="alert" data-testid="error-view" data-status={kind}>
      <Icon node={icon} size={56} class="error-icon" />
      <h2>{props.t(`errors.screen.${kind}`)}</h2>
      {props.homeUrl && <a class="button" href={props.homeUrl}>{props.t("sidebar.myFiles")}</a>}
    </section>
  );
}
