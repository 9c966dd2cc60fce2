// Job and CronJob native checks with kube-apiserver 1.36.5's messages.
import { describe, expect, it } from "vitest";
import { BATCH } from "./batch.ts";
import { cronScheduleError } from "./cron.ts";
import { runNative } from "./testing.ts";
import { loadLocationError } from "./timezone.ts";

type Obj = Record<string, any>;
const podTemplate = (restartPolicy?: string): Obj => ({ spec: { ...(restartPolicy ? { restartPolicy } : {}), containers: [{ name: "main", image: "busybox" }] } });
const job = (spec: Obj = {}, name = "backup"): Obj => ({ apiVersion: "batch/v1", kind: "Job", metadata: { name, namespace: "ops" }, spec: { template: podTemplate("Never"), ...spec } });
const cronJob = (spec: Obj = {}, name = "nightly"): Obj => ({
  apiVersion: "batch/v1",
  kind: "CronJob",
  metadata: { name, namespace: "ops" },
  spec: { schedule: "0 3 * * *", jobTemplate: { spec: { template: podTemplate("OnFailure") } }, ...spec },
});

describe("Job", () => {
  it("accepts a plain Job (the server generates its selector)", () => {
    expect(runNative(BATCH, job())).toEqual([]);
    expect(runNative(BATCH, job({ completionMode: "Indexed", completions: 5, parallelism: 2, backoffLimitPerIndex: 1, maxFailedIndexes: 2 }))).toEqual([]);
  });

  it("requires restartPolicy OnFailure or Never (an unset one defaults to Always)", () => {
    expect(runNative(BATCH, job({ template: podTemplate() }))).toEqual([
      '/spec/template/spec/restartPolicy spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never" [native:batch/job-restart-policy]',
    ]);
    expect(runNative(BATCH, job({ template: podTemplate("Always") }))).toHaveLength(1);
    expect(runNative(BATCH, job({ template: podTemplate("OnFailure"), podFailurePolicy: { rules: [{ action: "FailJob", onExitCodes: { operator: "In", values: [42] } }] } }))).toEqual([
      '/spec/template/spec/restartPolicy spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified [native:batch/job-restart-policy]',
    ]);
  });

  it("checks counts and the completion modes", () => {
    expect(runNative(BATCH, job({ parallelism: -1, backoffLimit: -2 }))).toEqual([
      "/spec/parallelism spec.parallelism: Invalid value: -1: must be greater than or equal to 0 [native:batch/job-counts]",
      "/spec/backoffLimit spec.backoffLimit: Invalid value: -2: must be greater than or equal to 0 [native:batch/job-counts]",
    ]);
    // a Job with neither completions nor parallelism gets both defaulted to 1 (accepted by the server)
    expect(runNative(BATCH, job({ completionMode: "Indexed" }))).toEqual([]);
    expect(runNative(BATCH, job({ completionMode: "Indexed", parallelism: 2 }))).toEqual(["/spec/completions spec.completions: Required value: when completion mode is Indexed [native:batch/job-indexed]"]);
    expect(runNative(BATCH, job({ backoffLimitPerIndex: 1 }))).toEqual([
      "/spec/backoffLimitPerIndex spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode [native:batch/job-indexed]",
    ]);
    expect(runNative(BATCH, job({ completionMode: "Indexed", completions: 3, maxFailedIndexes: 4 }))).toEqual([
      "/spec/backoffLimitPerIndex spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified [native:batch/job-indexed]",
      "/spec/maxFailedIndexes spec.maxFailedIndexes: Invalid value: 4: must be less than or equal to completions [native:batch/job-indexed]",
    ]);
    expect(runNative(BATCH, job({ completionMode: "Indexed", completions: 2 }, `j${"x".repeat(62)}`))).toEqual([
      `/metadata/name metadata.name: Invalid value: "j${"x".repeat(62)}": will not able to create pod with invalid DNS label: j${"x".repeat(62)}-1 [native:batch/job-name]`,
    ]);
  });

  it("refuses a selector of the user's own unless manualSelector is set, and then it must match the template", () => {
    // the server prints its generated UID where these say UID
    expect(runNative(BATCH, job({ selector: { matchLabels: { app: "backup" } } }))).toEqual([
      '/spec/selector spec.selector: Invalid value: {"matchLabels":{"app":"backup","batch.kubernetes.io/controller-uid":"UID"}}: `selector` not auto-generated [native:batch/job-selector]',
      '/spec/template/metadata/labels spec.template.metadata.labels: Invalid value: {"batch.kubernetes.io/controller-uid":"UID","batch.kubernetes.io/job-name":"backup","controller-uid":"UID","job-name":"backup"}: `selector` does not match template `labels` [native:batch/job-selector]',
    ]);
    expect(runNative(BATCH, job({ manualSelector: true }))).toEqual([
      "/spec/selector spec.selector: Required value [native:batch/job-selector]",
      "/spec/template/metadata/labels spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels` [native:batch/job-selector]",
    ]);
    const manual = job({ manualSelector: true, selector: { matchLabels: { app: "backup" } } });
    manual.spec.template.metadata = { labels: { app: "other" } };
    expect(runNative(BATCH, manual)).toEqual([
      '/spec/template/metadata/labels spec.template.metadata.labels: Invalid value: {"app":"other"}: `selector` does not match template `labels` [native:batch/job-selector]',
    ]);
    manual.spec.template.metadata.labels.app = "backup";
    expect(runNative(BATCH, manual)).toEqual([]);
  });

  it("checks pod failure and success policies", () => {
    const rules = [
      { action: "Restart", onExitCodes: { operator: "In", values: [0, 3, 3, 1] } },
      { action: "Ignore" },
      { action: "FailJob", onExitCodes: { operator: "NotIn", values: [1] }, onPodConditions: [{ type: "DisruptionTarget", status: "Maybe" }] },
    ];
    expect(runNative(BATCH, job({ podFailurePolicy: { rules } }))).toEqual([
      '/spec/podFailurePolicy/rules/0/action spec.podFailurePolicy.rules[0].action: Unsupported value: "Restart": supported values: "Count", "FailIndex", "FailJob", "Ignore" [native:batch/job-pod-failure-policy]',
      "/spec/podFailurePolicy/rules/0/onExitCodes/values/0 spec.podFailurePolicy.rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator [native:batch/job-pod-failure-policy]",
      "/spec/podFailurePolicy/rules/0/onExitCodes/values/2 spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 3 [native:batch/job-pod-failure-policy]",
      "/spec/podFailurePolicy/rules/0/onExitCodes/values spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [0,3,3,1]: must be ordered [native:batch/job-pod-failure-policy]",
      "/spec/podFailurePolicy/rules/1 spec.podFailurePolicy.rules[1]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required [native:batch/job-pod-failure-policy]",
      '/spec/podFailurePolicy/rules/2/onPodConditions/0/status spec.podFailurePolicy.rules[2].onPodConditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown" [native:batch/job-pod-failure-policy]',
      "/spec/podFailurePolicy/rules/2 spec.podFailurePolicy.rules[2]: Invalid value: specifying both OnExitCodes and OnPodConditions is not supported [native:batch/job-pod-failure-policy]",
    ]);
    expect(runNative(BATCH, job({ successPolicy: { rules: [{ succeededCount: 1 }] } }))).toEqual([
      '/spec/successPolicy spec.successPolicy: Invalid value: {"Rules":[{"SucceededIndexes":null,"SucceededCount":1}]}: requires indexed completion mode [native:batch/job-success-policy]',
    ]);
    expect(runNative(BATCH, job({ completionMode: "Indexed", completions: 3, successPolicy: { rules: [{ succeededIndexes: "0-1,5", succeededCount: 4 }, {}] } }))).toEqual([
      '/spec/successPolicy/rules/0/succeededIndexes spec.successPolicy.rules[0].succeededIndexes: Invalid value: "0-1,5": error parsing succeededIndexes: too large index: "5" [native:batch/job-success-policy]',
      "/spec/successPolicy/rules/0/succeededCount spec.successPolicy.rules[0].succeededCount: Invalid value: 4: must be less than or equal to 3 (the number of specified completions) [native:batch/job-success-policy]",
      "/spec/successPolicy/rules/0/succeededCount spec.successPolicy.rules[0].succeededCount: Invalid value: 4: must be less than or equal to 0 (the number of indexes in the specified succeededIndexes field) [native:batch/job-success-policy]",
      "/spec/successPolicy/rules/1 spec.successPolicy.rules[1]: Required value: at least one of succeededCount or succeededIndexes must be specified [native:batch/job-success-policy]",
    ]);
  });
});

describe("CronJob", () => {
  it("accepts standard schedules, descriptors and IANA time zones", () => {
    for (const schedule of ["*/15 * * * *", "0 3 * * mon-fri", "0 0 1 jan,jul *", "@hourly", "@every 1h30m", "0 9 * * 1"]) {
      expect(runNative(BATCH, cronJob({ schedule })), schedule).toEqual([]);
    }
    expect(runNative(BATCH, cronJob({ timeZone: "Europe/Berlin" }))).toEqual([]);
  });

  it("reports the cron parser's error (robfig/cron, as the server)", () => {
    expect(runNative(BATCH, cronJob({ schedule: "0 3 * *" }))).toEqual([
      '/spec/schedule spec.schedule: Invalid value: "0 3 * *": expected exactly 5 fields, found 4: [0 3 * *] [native:batch/cronjob-schedule]',
    ]);
    expect(runNative(BATCH, cronJob({ schedule: "61 * * * *" }))).toEqual([
      '/spec/schedule spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61 [native:batch/cronjob-schedule]',
    ]);
    expect(runNative(BATCH, cronJob({ schedule: "" }))).toEqual(["/spec/schedule spec.schedule: Required value [native:batch/cronjob-schedule]"]);
    expect(runNative(BATCH, cronJob({ schedule: "CRON_TZ=UTC 0 3 * * *" }))).toEqual([
      '/spec/schedule spec.schedule: Invalid value: "CRON_TZ=UTC 0 3 * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead [native:batch/cronjob-schedule]',
    ]);
    expect(cronScheduleError("@weekly2", loadLocationError)).toBe("unrecognized descriptor: @weekly2");
    expect(cronScheduleError("x * * * *", loadLocationError)).toBe('failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax');
    expect(cronScheduleError("5-2 * * * *", loadLocationError)).toBe("beginning of range (5) beyond end of range (2): 5-2");
    expect(cronScheduleError("*/0 * * * *", loadLocationError)).toBe("step of range should be a positive number: */0");
    expect(cronScheduleError("0 0 0 * *", loadLocationError)).toBe("beginning of range (0) below minimum (1): 0");
    expect(cronScheduleError("@every 5", loadLocationError)).toBe('failed to parse duration @every 5: time: missing unit in duration "5"');
  });

  it("checks the time zone as Go's LoadLocation would", () => {
    expect(runNative(BATCH, cronJob({ timeZone: "Mars/Olympus" }))).toEqual([
      '/spec/timeZone spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus [native:batch/cronjob-time-zone]',
    ]);
    expect(runNative(BATCH, cronJob({ timeZone: "europe/berlin" }))).toEqual([
      '/spec/timeZone spec.timeZone: Invalid value: "europe/berlin": unknown time zone europe/berlin [native:batch/cronjob-time-zone]',
    ]);
    expect(runNative(BATCH, cronJob({ timeZone: "" }))).toEqual(['/spec/timeZone spec.timeZone: Invalid value: "": timeZone must be nil or non-empty string [native:batch/cronjob-time-zone]']);
    expect(runNative(BATCH, cronJob({ timeZone: "Local" }))).toEqual([
      '/spec/timeZone spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones [native:batch/cronjob-time-zone]',
    ]);
  });

  it("checks the job template, history limits and the name length", () => {
    const c = cronJob({ failedJobsHistoryLimit: -1 }, "n".repeat(53));
    c.spec.jobTemplate.spec.selector = { matchLabels: { a: "b" } };
    c.spec.jobTemplate.spec.template.spec.restartPolicy = "Always";
    expect(runNative(BATCH, c)).toEqual([
      '/spec/jobTemplate/spec/template/spec/restartPolicy spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never" [native:batch/job-restart-policy]',
      '/spec/jobTemplate/spec/selector spec.jobTemplate.spec.selector: Invalid value: {"matchLabels":{"a":"b"}}: `selector` will be auto-generated [native:batch/cronjob-selector]',
      "/spec/failedJobsHistoryLimit spec.failedJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0 [native:batch/cronjob-counts]",
      `/metadata/name metadata.name: Invalid value: "${"n".repeat(53)}": must be no more than 52 characters [native:batch/cronjob-name]`,
    ]);
  });
});
