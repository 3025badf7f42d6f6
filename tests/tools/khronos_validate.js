// Validate many glTF files with the Khronos glTF-Validator in one Node process (used by tests/khronos.py).
// argv[2]: the gltf-validator package folder. stdin: JSON [{"file": path, "base": folder of its resources}].
// stdout: JSON [{"file", "numErrors", "numWarnings", "errors": [{"code", "pointer", "message"}], "failure"?}].
"use strict";
const fs = require("fs");
const path = require("path");
const validator = require(process.argv[2]);

async function one(entry) {
  const base = entry.base || path.dirname(entry.file);
  try {
    const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(entry.file)), {
      uri: path.basename(entry.file),
      maxIssues: 200,
      externalResourceFunction: (uri) =>
        new Promise((resolve, reject) => {
          fs.readFile(path.resolve(base, decodeURIComponent(uri)), (err, data) =>
            err ? reject(err.toString()) : resolve(new Uint8Array(data)),
          );
        }),
    });
    const errors = report.issues.messages
      .filter((m) => m.severity === 0)
      .map((m) => ({ code: m.code, pointer: m.pointer || "", message: m.message }));
    return { file: entry.file, numErrors: report.issues.numErrors, numWarnings: report.issues.numWarnings, errors };
  } catch (err) {
    return { file: entry.file, numErrors: 1, numWarnings: 0, errors: [], failure: String(err) };
  }
}

async function main() {
  const entries = JSON.parse(fs.readFileSync(0, "utf8"));
  const out = [];
  for (const entry of entries) out.push(await one(entry));
  process.stdout.write(JSON.stringify(out));
}

main().catch((err) => {
  process.stderr.write(String(err && err.stack ? err.stack : err));
  process.exit(2);
});
