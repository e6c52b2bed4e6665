// This module is browser-compatible.
/**
 * The icons the interface uses, from one set (lucide) so every file draws the same shapes. Each icon is imported from
 * its own module: the package entry loads every icon (~20 MiB and ~60 ms at server start).
 */
import ArrowDown from "lucide/dist/esm/icons/arrow-down.mjs";
import ArrowUp from "lucide/dist/esm/icons/arrow-up.mjs";
import Check from "lucide/dist/esm/icons/check.mjs";
import ChevronLeft from "lucide/dist/esm/icons/chevron-left.mjs";
import ChevronRight from "lucide/dist/esm/icons/chevron-right.mjs";
import CircleQuestionMark from "lucide/dist/esm/icons/circle-question-mark.mjs";
import ClipboardPaste from "lucide/dist/esm/icons/clipboard-paste.mjs";
import Copy from "lucide/dist/esm/icons/copy.mjs";
import Download from "lucide/dist/esm/icons/download.mjs";
import EllipsisVertical from "lucide/dist/esm/icons/ellipsis-vertical.mjs";
import File from "lucide/dist/esm/icons/file.mjs";
import FileArchive from "lucide/dist/esm/icons/file-archive.mjs";
import FileCode from "lucide/dist/esm/icons/file-code.mjs";
import FileHeadphone from "lucide/dist/esm/icons/file-headphone.mjs";
import FileImage from "lucide/dist/esm/icons/file-image.mjs";
import FilePlay from "lucide/dist/esm/icons/file-play.mjs";
import FilePlus from "lucide/dist/esm/icons/file-plus.mjs";
import FileQuestionMark from "lucide/dist/esm/icons/file-question-mark.mjs";
import FileText from "lucide/dist/esm/icons/file-text.mjs";
import FileX from "lucide/dist/esm/icons/file-x.mjs";
import Folder from "lucide/dist/esm/icons/folder.mjs";
import FolderInput from "lucide/dist/esm/icons/folder-input.mjs";
import FolderPlus from "lucide/dist/esm/icons/folder-plus.mjs";
import House from "lucide/dist/esm/icons/house.mjs";
import Image from "lucide/dist/esm/icons/image.mjs";
import Images from "lucide/dist/esm/icons/images.mjs";
import Info from "lucide/dist/esm/icons/info.mjs";
import LayoutGrid from "lucide/dist/esm/icons/layout-grid.mjs";
import Link2Off from "lucide/dist/esm/icons/link-2-off.mjs";
import List from "lucide/dist/esm/icons/list.mjs";
import ListChecks from "lucide/dist/esm/icons/list-checks.mjs";
import LoaderCircle from "lucide/dist/esm/icons/loader-circle.mjs";
import Lock from "lucide/dist/esm/icons/lock.mjs";
import LogIn from "lucide/dist/esm/icons/log-in.mjs";
import LogOut from "lucide/dist/esm/icons/log-out.mjs";
import Maximize2 from "lucide/dist/esm/icons/maximize-2.mjs";
import Menu from "lucide/dist/esm/icons/menu.mjs";
import Minimize2 from "lucide/dist/esm/icons/minimize-2.mjs";
import Music from "lucide/dist/esm/icons/eighth-notes.mjs";
import Pencil from "lucide/dist/esm/icons/pencil.mjs";
import RotateCcw from "lucide/dist/esm/icons/rotate-ccw.mjs";
import Save from "lucide/dist/esm/icons/save.mjs";
import Scissors from "lucide/dist/esm/icons/scissors.mjs";
import Search from "lucide/dist/esm/icons/search.mjs";
import ServerCrash from "lucide/dist/esm/icons/server-crash.mjs";
import Settings from "lucide/dist/esm/icons/settings.mjs";
import Trash from "lucide/dist/esm/icons/trash.mjs";
import Trash2 from "lucide/dist/esm/icons/trash.mjs";
import TriangleAlert from "lucide/dist/esm/icons/triangle-alert.mjs";
import UserPlus from "lucide/dist/esm/icons/user-plus.mjs";
import Video from "lucide/dist/esm/icons/video.mjs";
import WifiOff from "lucide/dist/esm/icons/wifi-off.mjs";
import X from "lucide/dist/esm/icons/x.mjs";
import ZoomIn from "lucide/dist/esm/icons/zoom-in.mjs";
import ZoomOut from "lucide/dist/esm/icons/zoom-out.mjs";

export {
  ArrowDown,
  ArrowUp,
  Check,
  ChevronLeft,
  ChevronRight,
  CircleQuestionMark,
  ClipboardPaste,
  Copy,
  Download,
  EllipsisVertical,
  File,
  FileArchive,
  FileCode,
  FileHeadphone,
  FileImage,
  FilePlay,
  FilePlus,
  FileQuestionMark,
  FileText,
  FileX,
  Folder,
  FolderInput,
  FolderPlus,
  House,
  Image,
  Images,
  Info,
  LayoutGrid,
  Link2Off,
  List,
  ListChecks,
  LoaderCircle,
  Lock,
  LogIn,
  LogOut,
  Maximize2,
  Menu,
  Minimize2,
  Music,
  Pencil,
  RotateCcw,
  Save,
  Scissors,
  Search,
  ServerCrash,
  Settings,
  Trash,
  Trash2,
  TriangleAlert,
  UserPlus,
  Video,
  WifiOff,
  X,
  ZoomIn,
  ZoomOut,
};
