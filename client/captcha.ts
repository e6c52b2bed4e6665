// This module is browser-compatible.
/**
 * The human-verification widget in the browser, through the reCAPTCHA v2 API (`grecaptcha.render`,
 * `getResponse`, `reset`), loaded from the configured host with an explicit render callback.
 */

/** The part of the provider's global object we use. */
interface Grecaptcha {
  render(
    el: HTMLElement,
    options: { sitekey: string; theme?: "light" | "dark"; size?: "normal" | "compact" },
  ): number;
  getResponse(id?: number): string;
  reset(id?: number): void;
}

/** A rendered widget. */
export interface CaptchaWidget {
  /** The token of a solved challenge, "" while unsolved. */
  response(): string;
  /** Clears the widget after a login attempt used its token (tokens are single-use). */
  reset(): void;
}

const CALLBACK = "fbCaptchaLoaded";

let loading: Promise<Grecaptcha> | null = null;

function loadScript(host: string, locale: string): Promise<Grecaptcha> {
  loading ??= new Promise<Grecaptcha>((resolve, reject) => {
    const g = globalThis as unknown as Record<string, unknown>;
    g[CALLBACK] = () => resolve(g.grecaptcha as Grecaptcha);
    const script = document.createElement("script");
    script.src = `${host}/recaptcha/api.js?render=explicit&onload=${CALLBACK}&hl=${
      encodeURIComponent(locale)
    }`;
    script.async = true;
    script.onerror = () => {
      loading = null;
      script.remove();
      reject(new Error("human verification script failed to load"));
    };
    document.head.append(script);
  });
  return loading;
}

function isDark(): boolean {
  const theme = document.documentElement.dataset.theme;
  return theme === "dark" || (!theme && matchMedia("(prefers-color-scheme: dark)").matches);
}

/** Loads the provider's script (once per page) and renders the widget into `el`. */
export async function renderCaptcha(
  el: HTMLElement,
  options: { host: string; siteKey: string; locale: string },
): Promise<CaptchaWidget> {
  const g = await loadScript(options.host, options.locale);
  const id = g.render(el, {
    sitekey: options.siteKey,
    theme: isDark() ? "dark" : "light",
    // The normal widget is 304 px wide: it may spill a pixel or two into the card's padding, but narrow phones
    // get the compact one.
    size: el.clientWidth < 300 ? "compact" : "normal",
  });
  return {
    response: () => g.getResponse(id) ?? "",
    reset: () => g.reset(id),
  };
}
