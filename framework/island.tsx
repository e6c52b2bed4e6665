/** Island markers: a component wrapped with `island()` is rendered on the server and hydrated in the browser. */
import { h } from "preact";
import type { ComponentType, VNode } from "preact";
import { escapeForScript, SerializeError, stringify } from "./serialize.ts";

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

/**
 * Serialises plain JSON data (page data read with `JSON.parse`) for a `<script type="application/json">`
 * block, safe against `</script>` and U+2028/9. null stays null; undefined becomes `{}`.
 */
export function serializeJson(value: unknown): string {
  return escapeForScript(JSON.stringify(value === undefined ? {} : value));
}

/** Former name of `serializeJson` (plain JSON, not the island props format). */
export const serializeProps = serializeJson;

/** Thrown when an island's props cannot be serialised: names the island and the prop path. */
export class IslandPropsError extends Error {
  constructor(island: string, cause: SerializeError) {
    super(`Island "${island}": ${cause.message}; island props must be serialisable data`, { cause });
    this.name = "IslandPropsError";
  }
}

/** Serialises the props of island `name` (framework/serialize.ts format), safe inside a script block. */
export function serializeIslandProps(name: string, props: unknown): string {
  try {
    return escapeForScript(stringify(props, "props"));
  } catch (err) {
    if (err instanceof SerializeError) throw new IslandPropsError(name, err);
    throw err;
  }
}

/**
 * Wraps a component as an island. Use `island(Component)`: the name is the file name (`islands/Name.tsx`),
 * given by the manifest when the routes are mounted. `island("Name", Component)` also works; the build and
 * the mount check that the name equals the file name. Props go through framework/serialize.ts.
 */
export function island<P extends object>(component: ComponentType<P>): IslandComponent<P>;
export function island<P extends object>(name: string, component: ComponentType<P>): IslandComponent<P>;
export function island<P extends object>(
  nameOrComponent: string | ComponentType<P>,
  maybeComponent?: ComponentType<P>,
): IslandComponent<P> {
  const component = (typeof nameOrComponent === "string" ? maybeComponent : nameOrComponent)!;
  function IslandRoot(props: P): VNode {
    if (IS_BROWSER) return h(component as ComponentType<object>, props);
    const name = wrapper.islandName;
    if (!name) {
      throw new Error(
        "An island without a name was rendered: export it from islands/<Name>.tsx (the manifest names it)",
      );
    }
    collector?.add(name);
    const attrs: Record<string, string> = { "data-island": name, style: "display:contents" };
    return h("fb-island" as "div", attrs, [
      h("script", {
        type: "application/json",
        "data-island-props": name,
        dangerouslySetInnerHTML: { __html: serializeIslandProps(name, props) },
      }),
      h(
        "div",
        { "data-island-root": name, style: "display:contents" },
        h(component as ComponentType<object>, props),
      ),
    ]);
  }
  const wrapper = Object.assign(IslandRoot, {
    islandName: typeof nameOrComponent === "string" ? nameOrComponent : "",
    inner: component,
  });
  return wrapper;
}

/** True for a component made by `island()`. */
export function isIsland(x: unknown): x is IslandComponent<object> {
  return typeof x === "function" && typeof (x as { islandName?: unknown }).islandName === "string" &&
    typeof (x as { inner?: unknown }).inner === "function";
}

/**
 * Names the islands of a manifest after their files (`islands/Name.tsx` exports `Name`): fills the name of
 * `island(Component)`, and throws when `island("Other", …)` disagrees with the file name.
 */
export function nameIslands(islands: Record<string, Record<string, unknown>>): void {
  for (const [file, mod] of Object.entries(islands)) {
    const name = islandNameOf(file);
    const component = mod[name];
    if (!isIsland(component)) {
      throw new Error(`${file}: expected an export \`${name}\` made with island()`);
    }
    if (component.islandName && component.islandName !== name) {
      throw new Error(
        `${file}: island("${component.islandName}", …) must be named after its file ("${name}"), or use island(Component)`,
      );
    }
    component.islandName = name;
  }
}

/** The island name of an island file: its base name without `.tsx`. */
export function islandNameOf(file: string): string {
  return file.split("/").pop()!.replace(/\.tsx$/, "");
}
