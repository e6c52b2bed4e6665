/** Island markers: a component wrapped with `island()` is rendered on the server and hydrated in the browser. */
import { h } from "preact";
import type { ComponentType, VNode } from "preact";

/** An island component carries its name and the inner component. */
export type IslandComponent<P> = ComponentType<P> & { islandName: string; inner: ComponentType<P> };

const IS_BROWSER = typeof document !== "undefined";
let collector: Set<string> | null = null;

/** Starts collecting the islands used by one synchronous server render. */
export function beginIslandCollection(): void {
  collector = new Set();
}

/** Ends the collection and returns the island names used. */
export function endIslandCollection(): string[] {
  const names = collector ? [...collector] : [];
  collector = null;
  return names;
}

/** Serialises props for a `<script type="application/json">` block, safe against `</script>` and U+2028/9. */
export function serializeProps(props: unknown): string {
  // null stays null (e.g. "no user"); only a missing value becomes {}.
  return JSON.stringify(props === undefined ? {} : props)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** Wraps a component as an island. Props must be JSON-serialisable (no functions, Dates or class instances). */
export function island<P extends object>(name: string, component: ComponentType<P>): IslandComponent<P> {
  function IslandRoot(props: P): VNode {
    if (IS_BROWSER) return h(component as ComponentType<object>, props);
    collector?.add(name);
    const attrs: Record<string, string> = { "data-island": name, style: "display:contents" };
    return h("fb-island" as "div", attrs, [
      h("script", {
        type: "application/json",
        "data-island-props": name,
        dangerouslySetInnerHTML: { __html: serializeProps(props) },
      }),
      h(
        "div",
        { "data-island-root": name, style: "display:contents" },
        h(component as ComponentType<object>, props),
      ),
    ]);
  }
  return Object.assign(IslandRoot, { islandName: name, inner: component });
}
