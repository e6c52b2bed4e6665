/** Compressing through a system tool (bzip2, xz): stdin → stdout, killed when the output is cancelled. */
import { log } from "../log.ts";
import { UnavailableError } from "../errors.ts";

/** How to run one compressor tool. */
export interface ToolCommand {
  /** Tool name for messages ("bzip2"). */
  tool: string;
  /** Executable path or a name looked up in PATH. */
  path: string;
  args: string[];
}

const probes = new Map<string, Promise<boolean>>();

/** Whether the executable can be started (cached per path). */
export function isToolInstalled(path: string): Promise<boolean> {
  let probe = probes.get(path);
  if (!probe) {
    probe = (async () => {
      try {
        await new Deno.Command(path, { args: ["--version"], stdin: "null", stdout: "null", stderr: "null" })
          .output();
        return true;
      } catch (err) {
        // Spawning throws (synchronously) when the executable is missing or not executable.
        log.debug(`archive: tool "${path}" cannot be started`, err);
        return false;
      }
    })();
    probes.set(path, probe);
  }
  return probe;
}

/** The error thrown when a format's tool is missing. */
export function toolMissingError(command: ToolCommand, cause?: unknown): UnavailableError {
  return new UnavailableError(
    "archive_tool_missing",
    `Cannot create the archive: the "${command.tool}" tool is not installed on the server`,
    { cause },
  );
}

/**
 * Pipes `input` through the tool and returns its output. Cancelling the output kills the child
 * and cancels `input`; an error in `input` kills the child and errors the output.
 */
export function spawnCompressor(
  input: ReadableStream<Uint8Array>,
  command: ToolCommand,
): ReadableStream<Uint8Array<ArrayBuffer>> {
  let child: Deno.ChildProcess;
  let reader: ReadableStreamDefaultReader<Uint8Array<ArrayBuffer>>;
  let pump: Promise<void>;
  let inputError: unknown = undefined;
  const abort = new AbortController();
  const kill = () => {
    try {
      child.kill("SIGKILL");
    } catch (err) {
      log.debug(`archive: ${command.tool} already exited`, err);
    }
  };
  return new ReadableStream<Uint8Array<ArrayBuffer>>({
    start(controller) {
      try {
        child = new Deno.Command(command.path, {
          args: command.args,
          stdin: "piped",
          stdout: "piped",
          stderr: "null",
        }).spawn();
      } catch (err) {
        input.cancel(err).catch((cancelErr) => log.debug("archive: cancelling the input failed", cancelErr));
        // Error the stream rather than throw: a throwing start() would make the constructor throw.
        const missing = err instanceof Deno.errors.NotFound || err instanceof Deno.errors.PermissionDenied;
        controller.error(missing ? toolMissingError(command, err) : err);
        return;
      }
      reader = child.stdout.getReader();
      pump = input.pipeTo(child.stdin, { signal: abort.signal }).catch((err) => {
        if (abort.signal.aborted) return;
        // The input failed (or the child closed stdin early): do not let the tool finish a
        // truncated archive as if it were complete.
        inputError = err;
        kill();
      });
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (!done) {
        controller.enqueue(value);
        return;
      }
      await pump;
      const status = await child.status;
      if (inputError !== undefined) controller.error(inputError);
      else if (!status.success) {
        controller.error(new Error(`${command.tool} exited with code ${status.code}`));
      } else controller.close();
    },
    async cancel(reason) {
      abort.abort(reason);
      kill();
      await reader.cancel(reason).catch((err) =>
        log.debug(`archive: closing ${command.tool} output failed`, err)
      );
      await child.status;
      await pump;
    },
  });
}
