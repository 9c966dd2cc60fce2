// Rewrites describe-fixture.ap-southeast-1.json from the installed moto (5.2.5, checked by the caller's setup):
// `pnpm --filter @eks-gitops/capacity exec tsx src/testing/write-describe-fixture.ts <moto package folder>`.
import { writeFileSync } from "node:fs";
import { DESCRIBE_FIXTURE_FILE, DESCRIBE_FIXTURE_TYPES } from "./describe-fixture.ts";
import { motoDescribe } from "./moto-data.ts";

const motoPackageDir = process.argv[2];
if (!motoPackageDir) {
  process.stderr.write("usage: write-describe-fixture.ts <folder of the installed moto package>\n");
  process.exit(2);
}
writeFileSync(DESCRIBE_FIXTURE_FILE, `${JSON.stringify(motoDescribe(motoPackageDir, "ap-southeast-1", DESCRIBE_FIXTURE_TYPES), null, 2)}\n`);
