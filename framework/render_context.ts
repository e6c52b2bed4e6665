// This module is browser-compatible.
/** A Preact context the document shell fills during a server render, so components can read per-request data. */
import { createContext } from "preact";

/**
 * Per-request data for one server render (the app decides its shape). Islands hydrate as separate roots in the
 * browser, where this context is empty: browser code reads the same data from the page instead.
 */
export const RenderContext = createContext<unknown>(undefined);
