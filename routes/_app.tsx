import type { ComponentChildren } from "preact";
import type { AppShellProps } from "../framework/router.ts";
import { RenderContext } from "../framework/render_context.ts";
import type { AppState } from "../lib/state.ts";
import { intlTag, isRtl, parseAcceptLanguage, pickLocale } from "../lib/i18n.ts";
import { loadStrings, translatorFor } from "../lib/locales.ts";
import { PAGE_DATA_IDS, startupConfig } from "../lib/startup_config.ts";
import type { PageInfo, RenderData } from "../lib/startup_config.ts";
import { toWireUser } from "../lib/users.ts";
import { serializeJson } from "../framework/island.tsx";

function JsonScript(props: { id: string; value: unknown }) {
  return (
    <script
      type="application/json"
      id={props.id}
      dangerouslySetInnerHTML={{ __html: serializeJson(props.value) }}
    />
  );
}

/** The title of an error status without one of its own: 403, 404, and 500 for every server failure. */
function errorTitle(status: number): string | undefined {
  if (status === 403 || status === 404) return `errors.title.${status}`;
  return status >= 500 ? "errors.title.500" : undefined;
}

/**
 * The document shell: language and direction, theme, startup config and the active locale's strings. Its JSON
 * blocks and RenderContext carry shell data only (config, session user, locale), the same on every page of a
 * session; a page's own data reaches its islands as props (docs/architecture.md, "Islands and the framework").
 */
export default function App(props: AppShellProps) {
  const state = props.state as Partial<AppState>;
  const settings = state.settings!;
  const stored = state.user ?? null;
  const user = stored ? toWireUser(stored, { viewerIsAdmin: stored.perm.admin }) : null;
  const locale = pickLocale(user?.locale, parseAcceptLanguage(props.request.headers.get("accept-language")));
  const config = startupConfig(state.deps!.config, settings);
  const info: PageInfo = { config, user, locale, strings: loadStrings(locale) };
  const translator = translatorFor(locale);
  const name = config.Name || "File Browser";
  const titleKey = props.title ?? errorTitle(props.status);
  const title = titleKey ? `${translator.t(titleKey)} - ${name}` : name;
  const theme = user?.theme || config.Theme || undefined;
  const base = config.BaseURL;
  const render: RenderData = { info, t: translator.t };
  if (props.partial) {
    // Client-side navigation: the browser keeps its document (same user, locale and theme) and swaps the main area.
    return (
      <RenderContext.Provider value={render}>
        <title>{title}</title>
        {props.children as ComponentChildren}
      </RenderContext.Provider>
    );
  }
  return (
    <html lang={intlTag(locale)} dir={isRtl(locale) ? "rtl" : "ltr"} data-theme={theme}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content={theme ?? "light dark"} />
        <title>{title}</title>
        <link rel="icon" href={`${base}/static/logo.svg`} type="image/svg+xml" />
        <link rel="stylesheet" href={`${base}/static/app.css?v=${config.Version}`} />
        {config.CSS && <link rel="stylesheet" href={`${base}/custom.css`} />}
        <JsonScript id={PAGE_DATA_IDS.config} value={config} />
        <JsonScript id={PAGE_DATA_IDS.user} value={user} />
        <JsonScript id={PAGE_DATA_IDS.i18n} value={{ locale, strings: info.strings }} />
      </head>
      <body>
        <RenderContext.Provider value={render}>{props.children as ComponentChildren}</RenderContext.Provider>
      </body>
    </html>
  );
}
