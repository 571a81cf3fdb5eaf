// Fault injection for the travel server subprocess (loaded with NODE_OPTIONS=--import): the file system
// refuses renames to any target whose name contains "gesperrt", with Node's own EACCES error — what a
// participant sees when the workspace folder belongs to another user (tests run as root, where chmod
// would not stop the write).
import fs from "node:fs/promises";
import { syncBuiltinESMExports } from "node:module";

const rename = fs.rename;
fs.rename = async (from, to) => {
  if (String(to).includes("gesperrt")) {
    const error = new Error(`EACCES: permission denied, rename '${from}' -> '${to}'`);
    Object.assign(error, { errno: -13, code: "EACCES", syscall: "rename", path: String(from), dest: String(to) });
    throw error;
  }
  return rename(from, to);
};
syncBuiltinESMExports();
