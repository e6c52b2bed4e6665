// This module is browser-compatible.
/** Icons of the shell panel and its header toggle (lucide, one module per icon). */
import CircleStop from "lucide/dist/esm/icons/circle-stop.mjs";
import Eraser from "lucide/dist/esm/icons/eraser.mjs";
import SquareTerminal from "lucide/dist/esm/icons/square-terminal.mjs";

export { CircleStop, Eraser, SquareTerminal };
