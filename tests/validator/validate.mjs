// SPDX-License-Identifier: MIT
// Runs Khronos' glTF-Validator (npm package gltf-validator) on each file
// given on the command line and exits non-zero when any report has errors.
//
//   node tests/validator/validate.mjs FILE.gltf|FILE.glb...
//
// Exit status: 0 = no errors (warnings and infos are printed, not fatal),
// 1 = at least one file has errors or could not be validated, 2 = usage,
// 77 = the gltf-validator package is not installed (scripts/
// install-node-deps.sh installs it), so test drivers can report a skip.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(path.join(root, 'package.json'));

let validator;
try {
  validator = require('gltf-validator');
} catch (e) {
  console.error(`validate: gltf-validator is not installed under ${root}/node_modules ` +
                '(run scripts/install-node-deps.sh)');
  process.exit(77);
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node tests/validator/validate.mjs FILE.gltf|FILE.glb...');
  process.exit(2);
}

// External buffers are read relative to the file, as a glTF client would;
// a URI that leaves the folder is refused so a report never depends on
// files elsewhere.
function loader(file) {
  const dir = path.dirname(path.resolve(file));
  return (uri) => new Promise((resolve, reject) => {
    const target = path.resolve(dir, decodeURIComponent(uri));
    if (path.relative(dir, target).startsWith('..')) {
      reject(`${uri}: outside ${dir}`);
      return;
    }
    fs.readFile(target, (err, data) => (err ? reject(err.toString()) : resolve(data)));
  });
}

const severity = ['error', 'warning', 'info', 'hint'];
let failed = 0;
for (const file of files) {
  let report;
  try {
    report = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {
      uri: path.basename(file),
      maxIssues: 0,
      writeTimestamp: false,
      externalResourceFunction: loader(file),
    });
  } catch (e) {
    console.error(`${file}: the validator could not read it: ${e}`);
    ++failed;
    continue;
  }
  const issues = report.issues;
  for (const m of issues.messages) {
    if (m.severity > 1) continue; // infos and hints: not worth a line each
    console.log(`${file}: ${severity[m.severity]}: ${m.code} at ${m.pointer ?? m.offset ?? ''}: ${m.message}`);
  }
  console.log(`${file}: ${issues.numErrors} errors, ${issues.numWarnings} warnings, ` +
              `${issues.numInfos} infos, ${issues.numHints} hints`);
  if (issues.numErrors > 0) ++failed;
}
process.exit(failed ? 1 : 0);
