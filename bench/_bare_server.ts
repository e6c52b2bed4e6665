/**
 * The floor of what Deno.serve can do on this machine: `deno run -A bench/_bare_server.ts <root> <port>` answers
 * `GET /<path>` with the file's bytes (opened per request, streamed natively) and `GET /<dir>/` with a JSON list
 * of the folder's names, sizes and dates, with no routing, auth or middleware.
 */
const [root, port] = Deno.args;

Deno.serve({ hostname: "127.0.0.1", port: Number(port), onListen: () => {} }, async (req) => {
  const path = root + decodeURIComponent(new URL(req.url).pathname);
  try {
    if (path.endsWith("/")) {
      const items = [];
      for await (const e of Deno.readDir(path)) {
        const info = await Deno.lstat(path + e.name);
        items.push({
          name: e.name,
          size: info.size,
          modified: info.mtime?.toISOString(),
          isDir: e.isDirectory,
        });
      }
      return Response.json({ items });
    }
    const file = await Deno.open(path);
    const info = await file.stat();
    return new Response(file.readable, { headers: { "Content-Length": String(info.size) } });
  } catch {
    return new Response("404 Not Found", { status: 404 });
  }
});
