// Rewrites the coverage table of the package README from entry-points.json (test-tools/validation-coverage) and status.ts.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { README_FILE, readEntryPoints, withCoverageTable } from "./readme-table.ts";

const file = fileURLToPath(README_FILE);
const next = withCoverageTable(readFileSync(file, "utf8"), readEntryPoints());
writeFileSync(`${file}.tmp`, next);
renameSync(`${file}.tmp`, file);
process.stdout.write(`wrote the coverage table of ${file}\n`);
