// The kinds the differential must cover come from the validate package's generated coverage table.
import { describe, expect, it } from "vitest";
import { coverageKinds, NOT_STORED } from "./coverage-kinds.ts";

describe("coverageKinds", () => {
  it("lists the table's stored kinds, leaving out requests the server answers without storing", () => {
    const { kinds, leftOut } = coverageKinds();
    expect(kinds).toEqual([...kinds].sort());
    for (const kind of ["CSINode", "DeviceClass", "ResourceClaim", "ResourceSlice", "ControllerRevision", "ResourceQuota", "Pod", "ValidatingAdmissionPolicy"]) {
      expect(kinds).toContain(kind);
    }
    expect(leftOut.sort()).toEqual(Object.keys(NOT_STORED).sort());
    expect(kinds.filter((k) => k in NOT_STORED)).toEqual([]);
  });
});
