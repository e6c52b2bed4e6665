import { drainBody } from "../../../../middleware/drain_body.ts";

// Drain first, so that even a refused chunk leaves the connection usable.
export const middleware = [drainBody()];
