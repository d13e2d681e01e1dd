import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BuiltinError, BuiltinTypeError } from "../../errors.js";
import type { Value } from "../../value/value.js";
import { lookupBuiltin } from "../registry.js";
import type { BuiltinContext } from "../registry-types.js";

const ctx: BuiltinContext = {
  nowNs: 1670006453141828752n,
  cache: new Map(),
  print: () => {},
  strict: false,
  checkCancel: () => {},
  maxCollectionSize: 1_000_000,
};

function call(name: string, ...args: Value[]): Value | undefined {
  const def = lookupBuiltin(name);
  assert.ok(def, `${name} is registered`);
  return def.impl(args, ctx);
}

const RFC3339 = "2006-01-02T15:04:05Z07:00";
const SAMPLE = 1670006453141828752n;

describe("time.now_ns", () => {
  it("returns the clock of the evaluation context", () => {
    assert.equal(call("time.now_ns"), SAMPLE);
  });
});

describe("time.parse_ns", () => {
  it("parses RFC 3339 with an offset", () => {
    assert.equal(call("time.parse_ns", RFC3339, "2017-06-02T19:00:00-07:00"), 1496455200000000000n);
  });
  it("parses the extremes of the int64 range with nanoseconds", () => {
    assert.equal(
      call("time.parse_ns", RFC3339, "1677-09-21T00:12:43.145224192-00:00"),
      -(2n ** 63n),
    );
    assert.equal(
      call("time.parse_ns", RFC3339, "2262-04-11T23:47:16.854775807-00:00"),
      2n ** 63n - 1n,
    );
  });
  it("rejects instants outside the int64 range", () => {
    assert.throws(
      () => call("time.parse_ns", RFC3339, "2262-04-11T23:47:16.854775808-00:00"),
      (e: Error) =>
        e instanceof BuiltinError && e.message === "time.parse_ns: time outside of valid range",
    );
  });
  it("reads 12-hour clocks, two-digit years and named layouts", () => {
    assert.equal(
      call("time.parse_ns", "01/02 03:04:05PM '06 -0700", "06/02 07:00:00PM '17 -0700"),
      1496455200000000000n,
    );
    assert.equal(call("time.parse_ns", "RFC822Z", "02 Jun 17 19:00 -0700"), 1496455200000000000n);
    assert.equal(
      call("time.parse_ns", "Jan 2 2006 3:04pm", "dec 2 2022 6:40pm"),
      1670006400000000000n,
    );
  });
  it("accepts padded days and zone abbreviations", () => {
    assert.equal(
      call("time.parse_ns", "Mon Jan _2 15:04:05 MST 2006", "Fri Dec  2 18:40:53 UTC 2022"),
      1670006453000000000n,
    );
  });
  it("reports Go's messages for bad text", () => {
    assert.throws(() => call("time.parse_ns", "2006-01-02", "2020-x2-30"), {
      message:
        'time.parse_ns: parsing time "2020-x2-30" as "2006-01-02": cannot parse "x2-30" as "01"',
    });
    assert.throws(() => call("time.parse_ns", "2006-01-02", "2020-02-30"), {
      message: 'time.parse_ns: parsing time "2020-02-30": day out of range',
    });
    assert.throws(() => call("time.parse_ns", "2006-01-02", "2020-02-03 x"), {
      message: 'time.parse_ns: parsing time "2020-02-03 x": extra text: " x"',
    });
    assert.throws(() => call("time.parse_ns", "15:04", "25:00"), {
      message: 'time.parse_ns: parsing time "25:00": hour out of range',
    });
  });
  it("rejects operands of the wrong type", () => {
    assert.throws(() => call("time.parse_ns", 1, "x"), BuiltinTypeError);
  });
});

describe("time.parse_rfc3339_ns and time.parse_duration_ns", () => {
  it("parses RFC 3339 text", () => {
    assert.equal(call("time.parse_rfc3339_ns", "1970-01-01T00:00:00-00:00"), 0);
    assert.equal(call("time.parse_rfc3339_ns", "2022-12-02T18:40:53.141828752Z"), SAMPLE);
  });
  it("parses Go durations with fractions and several units", () => {
    assert.equal(call("time.parse_duration_ns", "100ms"), 100000000);
    assert.equal(call("time.parse_duration_ns", "1h30m1.5s"), 5401500000000);
    assert.equal(call("time.parse_duration_ns", "-1.5us"), -1500);
    assert.equal(call("time.parse_duration_ns", "0"), 0);
  });
  it("reports missing and unknown units", () => {
    assert.throws(() => call("time.parse_duration_ns", "1"), {
      message: 'time.parse_duration_ns: time: missing unit in duration "1"',
    });
    assert.throws(() => call("time.parse_duration_ns", "1x"), {
      message: 'time.parse_duration_ns: time: unknown unit "x" in duration "1x"',
    });
    assert.throws(() => call("time.parse_duration_ns", ""), {
      message: 'time.parse_duration_ns: time: invalid duration ""',
    });
  });
});

describe("time.date, time.clock and time.weekday", () => {
  const feb5 = 1517832000n * 1_000_000_000n;
  it("break an instant down in UTC and in IANA zones", () => {
    assert.deepEqual(call("time.date", 1517814000n * 1_000_000_000n), [2018, 2, 5]);
    assert.deepEqual(
      call("time.date", [1517814000n * 1_000_000_000n, "America/Los_Angeles"]),
      [2018, 2, 4],
    );
    assert.deepEqual(call("time.date", [feb5, ""]), [2018, 2, 5]);
    assert.deepEqual(call("time.clock", feb5), [12, 0, 0]);
    assert.deepEqual(call("time.clock", [feb5, "America/New_York"]), [7, 0, 0]);
    assert.equal(call("time.weekday", feb5), "Monday");
    assert.equal(call("time.weekday", 1518350400000000000n), "Sunday");
  });
  it("handle leap days", () => {
    assert.deepEqual(call("time.date", 1582977600n * 1_000_000_000n), [2020, 2, 29]);
  });
  it("reject timestamps beyond int64 and unknown zones", () => {
    assert.throws(() => call("time.date", 1582977600 * 1e12), {
      message: "time.date: timestamp too big",
    });
    assert.throws(() => call("time.weekday", 1.5), { message: "time.weekday: timestamp too big" });
    assert.throws(() => call("time.clock", [feb5, "Mars/Olympus"]), {
      message: "time.clock: unknown time zone Mars/Olympus",
    });
    assert.throws(() => call("time.date", "x"), {
      message: "time.date: operand 1 must be one of {number, array} but got string",
    });
  });
});

describe("time.format", () => {
  it("uses RFC 3339 with nanoseconds by default, in UTC", () => {
    assert.equal(call("time.format", SAMPLE), "2022-12-02T18:40:53.141828752Z");
  });
  it("applies a zone, a layout and a named layout", () => {
    assert.equal(
      call("time.format", [SAMPLE, "Asia/Kolkata"]),
      "2022-12-03T00:10:53.141828752+05:30",
    );
    assert.equal(
      call("time.format", [SAMPLE, "Asia/Kolkata", "Mon Jan 02 15:04:05 -0700 2006"]),
      "Sat Dec 03 00:10:53 +0530 2022",
    );
    assert.equal(
      call("time.format", [SAMPLE, "Asia/Kolkata", "RFC1123Z"]),
      "Sat, 03 Dec 2022 00:10:53 +0530",
    );
    assert.equal(
      call("time.format", [SAMPLE, "America/New_York", "RFC1123"]),
      "Fri, 02 Dec 2022 13:40:53 EST",
    );
    assert.equal(call("time.format", [SAMPLE, "UTC", "Kitchen"]), "6:40PM");
    assert.equal(
      call("time.format", [SAMPLE, "UTC", "Monday January _2 .000 002"]),
      "Friday December  2 .141 336",
    );
  });
});

describe("time.add_date and time.diff", () => {
  it("add years, months and days with Go's normalisation", () => {
    assert.equal(call("time.add_date", 1585852421593912000n, 3, 9, 12), 1705257221593912000n);
    assert.equal(call("time.add_date", 1585852421593912000n, -1, -1, -1), 1551465221593912000n);
  });
  it("reject results outside the int64 range", () => {
    assert.throws(() => call("time.add_date", 0, 2262, 1, 1), {
      message: "time.add_date: time outside of valid range",
    });
    assert.throws(() => call("time.add_date", -(2n ** 63n), 0, 0, -1), {
      message: "time.add_date: time outside of valid range",
    });
  });
  it("diff counts calendar units across month ends and zones", () => {
    const day = (s: string) => call("time.parse_ns", "2006-01-02", s) as Value;
    assert.deepEqual(call("time.diff", day("2020-02-02"), day("2020-03-01")), [0, 0, 28, 0, 0, 0]);
    assert.deepEqual(call("time.diff", day("2021-02-02"), day("2021-03-01")), [0, 0, 27, 0, 0, 0]);
    assert.deepEqual(call("time.diff", day("2004-02-29"), day("2005-03-01")), [1, 0, 1, 0, 0, 0]);
    assert.deepEqual(
      call("time.diff", [SAMPLE + 60_000_000_000n, "UTC"], [SAMPLE, "Asia/Shanghai"]),
      [0, 0, 0, 0, 1, 0],
    );
  });
});

describe("test.sleep", () => {
  it("returns null only after the end of the Go duration it was given", () => {
    // An order, not a measured time: the instant the duration ends (on the monotonic clock
    // Atomics.wait times out on, which V8 reads to the microsecond) comes before the return.
    // A busy or slow machine only moves the return later.
    const end = process.hrtime.bigint() + 5_000_000n - 1_000n;
    assert.equal(call("test.sleep", "5ms"), null);
    const returned = process.hrtime.bigint();
    assert.ok(returned >= end, `returned ${end - returned} ns before the duration's end`);
  });
  it("rejects a bad duration", () => {
    assert.throws(() => call("test.sleep", "soon"), {
      message: 'test.sleep: time: invalid duration "soon"',
    });
  });
});
