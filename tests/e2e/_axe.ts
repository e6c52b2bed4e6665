/**
 * axe-core inside the browser tests: the engine's source is injected into the page and run against the WCAG 2.0/2.1
 * A and AA rules; critical and serious findings fail the test.
 */
import type { Page } from "playwright-core";

const AXE_SOURCE = new URL("../../node_modules/axe-core/axe.min.js", import.meta.url);
let source: string | null = null;

/** One finding: the rule, its impact and the selectors of the offending nodes. */
export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** Runs axe on the page and returns its critical and serious findings. */
export async function seriousViolations(page: Page): Promise<AxeFinding[]> {
  source ??= await Deno.readTextFile(AXE_SOURCE);
  // The app's CSP forbids inline script tags; code evaluated through the DevTools protocol is not subject to it.
  if (!await page.evaluate(() => "axe" in globalThis)) await page.evaluate(source);
  return await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any
    const axe = (globalThis as any).axe;
    const result = await axe.run(document, { runOnly: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] });
    // deno-lint-ignore no-explicit-any
    return result.violations.filter((v: any) => v.impact === "critical" || v.impact === "serious")
      // deno-lint-ignore no-explicit-any
      .map((v: any) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        // deno-lint-ignore no-explicit-any
        targets: v.nodes.slice(0, 5).map((n: any) => n.target.join(" ")),
      }));
  });
}

/** Throws with a readable list when axe finds a critical or serious violation on the page. */
export async function assertAccessible(page: Page, screen: string): Promise<void> {
  const found = await seriousViolations(page);
  if (found.length) {
    const lines = found.map((f) => `  ${f.impact} ${f.id}: ${f.help}\n    ${f.targets.join("\n    ")}`);
    throw new Error(`${screen}: ${found.length} axe violation(s)\n${lines.join("\n")}`);
  }
}
