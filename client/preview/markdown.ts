// This module is browser-compatible.
/**
 * Markdown rendered for the preview: marked turns it into HTML and DOMPurify strips everything that could run code
 * (scripts, event handlers, javascript: URLs, iframes, forms). Both load on demand. Relative links and images are
 * resolved against the file's folder: images through the raw endpoint, links to the files page.
 */

/** How relative URLs of the document are resolved. */
export interface MarkdownLinks {
  /** URL of a vpath's content, for images. */
  raw: (vpath: string) => string;
  /** Files-page URL of a vpath, for links. */
  page: (vpath: string) => string;
  /** The folder of the Markdown file (vpath ending with "/"). */
  dir: string;
}

import { canonicalPath } from "../../lib/fs/path.ts";

const ABSOLUTE = /^(?:[a-z][a-z0-9+.-]*:|\/\/|#)/i;

/** Resolves a relative reference (`../img/a.png`) against a folder vpath; returns a clean vpath. */
export function resolveVpath(dir: string, ref: string): string {
  const [pathPart] = ref.split(/[?#]/);
  let decoded = pathPart;
  try {
    decoded = decodeURIComponent(pathPart);
  } catch {
    // Keep the reference as written when it is not valid percent-encoding.
  }
  const path = canonicalPath(decoded.startsWith("/") ? decoded : dir + decoded);
  return path !== "/" && decoded.endsWith("/") ? path + "/" : path;
}

/** True for references the resolver leaves alone (with a scheme, protocol-relative, or fragments). */
export function isAbsoluteRef(ref: string): boolean {
  return ABSOLUTE.test(ref.trim());
}

/**
 * Renames `on…=` attributes in raw HTML written into the Markdown. DOMPurify removes them anyway, but Chromium already
 * reports (and our CSP blocks) an inline handler when its parser merely creates such an element; renaming first keeps
 * the console clean. Only raw HTML tokens are touched, never text or code.
 */
export function neutralizeHandlers(html: string): string {
  return html.replace(/([\s/"'])on([a-z]+\s*=)/gi, "$1data-blocked-on$2");
}

let purifier: Promise<typeof import("dompurify").default> | null = null;
let currentLinks: MarkdownLinks | null = null;

function loadPurifier() {
  purifier ??= import("dompurify").then(({ default: DOMPurify }) => {
    DOMPurify.addHook("afterSanitizeAttributes", (node) => {
      const links = currentLinks;
      if (node.tagName === "A") {
        const href = node.getAttribute("href") ?? "";
        if (href && !isAbsoluteRef(href) && links) {
          node.setAttribute("href", links.page(resolveVpath(links.dir, href)));
        } else if (/^https?:/i.test(href)) {
          node.setAttribute("target", "_blank");
          node.setAttribute("rel", "noopener noreferrer");
        }
      }
      if (node.tagName === "IMG") {
        const src = node.getAttribute("src") ?? "";
        if (src && !isAbsoluteRef(src) && links) {
          node.setAttribute("src", links.raw(resolveVpath(links.dir, src)));
        }
        node.setAttribute("loading", "lazy");
      }
    });
    return DOMPurify;
  });
  return purifier;
}

/** Renders Markdown (GitHub flavour) to sanitised HTML, safe to put into the page. */
export async function renderMarkdown(text: string, links?: MarkdownLinks): Promise<string> {
  const [{ Marked }, DOMPurify] = await Promise.all([import("marked"), loadPurifier()]);
  const marked = new Marked({
    gfm: true,
    breaks: false,
    walkTokens(token) {
      if (token.type === "html") token.text = neutralizeHandlers(token.text);
    },
  });
  const html = await marked.parse(text);
  currentLinks = links ?? null;
  try {
    return DOMPurify.sanitize(html, {
      USE_PROFILES: { html: true },
      ALLOW_DATA_ATTR: false,
      FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "iframe", "object", "embed"],
      FORBID_ATTR: ["style"],
    });
  } finally {
    currentLinks = null;
  }
}
