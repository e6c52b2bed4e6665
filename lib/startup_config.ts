// This module is browser-compatible.
/** The startup configuration object embedded in every page (as upstream), base-URL aware, and the page data shape. */
import type { Config } from "../config.ts";
import type { Locale, Strings } from "./i18n.ts";
import type { Settings, StartupConfig, User } from "./types.ts";

/** Ids of the `<script type="application/json">` blocks every page carries (CSP forbids inline scripts). */
export const PAGE_DATA_IDS = { config: "fb-config", user: "fb-user", i18n: "fb-i18n" } as const;

/** The data a page hands to its browser code: startup config, session user, active locale and its strings. */
export interface PageInfo {
  config: StartupConfig;
  /** The logged-in user (wire shape), or null on public pages. */
  user: User | null;
  locale: Locale;
  strings: Strings;
}

/** What the document shell provides to components during a server render (see framework/render_context.ts). */
export interface RenderData {
  info: PageInfo;
  t: (key: string, vars?: Record<string, string | number>) => string;
}

/** Builds the startup configuration from the boot-time config and the admin-editable settings. */
export function startupConfig(config: Readonly<Config>, settings: Settings): StartupConfig {
  const json = config.authMethod === "json";
  return {
    AuthMethod: config.authMethod,
    BaseURL: config.baseUrl,
    CSS: !!settings.customCss,
    Color: settings.branding.color,
    DisableExternal: settings.branding.disableExternal,
    DisableUsedPercentage: settings.branding.disableUsedPercentage,
    EnableExec: config.enableExec,
    EnableThumbs: config.enableThumbs,
    HideLoginButton: settings.hideLoginButton,
    LoginPage: config.authMethod !== "noauth" && config.authMethod !== "proxy",
    LogoutPage: "/login",
    MinimumPasswordLength: settings.minimumPasswordLength,
    Name: settings.branding.name,
    NoAuth: config.authMethod === "noauth",
    ReCaptcha: json && !!config.recaptcha,
    ...(json && config.recaptcha
      ? { ReCaptchaHost: config.recaptcha.host, ReCaptchaKey: config.recaptcha.key }
      : {}),
    ...(config.issuesUrl && !settings.branding.disableExternal ? { IssuesURL: config.issuesUrl } : {}),
    ...(config.projectUrl && !settings.branding.disableExternal ? { ProjectURL: config.projectUrl } : {}),
    ResizePreview: config.resizePreview,
    Signup: json && settings.signup,
    StaticURL: `${config.baseUrl}/static`,
    Theme: settings.branding.theme,
    TusSettings: { chunkSize: settings.tus.chunkSize, retryCount: settings.tus.retryCount },
    Version: config.version,
    EnableGuest: !!settings.enableGuest,
    WebDAV: config.webdav,
    TrashDays: config.trashDays,
  };
}
