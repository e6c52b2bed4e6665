import type { StartupConfig } from "../lib/types.ts";
import { ErrorView } from "./ErrorView.tsx";
import { Logo } from "./Logo.tsx";

/** Props of ErrorPage. */
export interface ErrorPageProps {
  status: number;
  config: StartupConfig;
  t: (key: string) => string;
}

/** A full error page (no scripts): logo, the error screen for the status and a way back to the files. */
export function ErrorPage(props: ErrorPageProps) {
  return (
    <main class="center-page" data-testid="error-page">
      <Logo staticUrl={props.config.StaticURL} size={56} alt={props.config.Name || "File Browser"} />
      <ErrorView status={props.status} t={props.t} homeUrl={`${props.config.BaseURL}/files/`} />
    </main>
  );
}
