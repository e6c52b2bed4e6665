// Reference server for bench/upload.ts: @tus/server 2.x with its FileStore on Node, installed into
// bench/_work/tus_node by the bench (npm --prefix). Usage: node _tus_node_server.mjs <node_modules dir> <upload dir>
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [modules, directory] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(resolve(modules, p)).href);
const { Server } = await load("@tus/server/dist/index.js");
const { FileStore } = await load("@tus/file-store/dist/index.js");

const server = new Server({ path: "/files", datastore: new FileStore({ directory }) });
const http = server.listen({ host: "127.0.0.1", port: 0 }, () => {
  process.stdout.write(`listening ${http.address().port}\n`);
});
