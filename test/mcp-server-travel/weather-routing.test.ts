// Weather routing by date (forecast / archive / historical fallback) with an injected "today".
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { parseIsoDate } from "../../mcp-server-travel/src/dates.js";
import { NoCache } from "../../mcp-server-travel/src/services/cache.js";
import { HttpJsonClient } from "../../mcp-server-travel/src/services/http.js";
import { OpenMeteoClient } from "../../mcp-server-travel/src/services/open-meteo.js";
import { OnlineWeather, referenceShifts, routeWeather } from "../../mcp-server-travel/src/services/weather-online.js";
import { checkDates } from "../../mcp-server-travel/src/tools/handlers.js";
import { isoDates, openMeteoDaily, startFakeUpstream, type FakeUpstream } from "./fake-upstream.js";

const day = (s: string) => parseIsoDate(s)!;
const TODAY = day("2025-06-10");

describe("routeWeather", () => {
  it("uses the forecast from the recent past up to 15 days ahead", () => {
    assert.equal(routeWeather(TODAY, TODAY, TODAY), "forecast");
    assert.equal(routeWeather(TODAY, day("2025-06-25"), TODAY), "forecast");
    assert.equal(routeWeather(day("2025-06-05"), day("2025-06-12"), TODAY), "forecast");
  });
  it("switches to the historical fallback once the end lies more than 15 days ahead", () => {
    assert.equal(routeWeather(TODAY, day("2025-06-26"), TODAY), "historical_fallback");
    assert.equal(routeWeather(day("2025-12-24"), day("2025-12-26"), TODAY), "historical_fallback");
  });
  it("uses the archive for ranges that ended more than 5 days ago", () => {
    assert.equal(routeWeather(day("2025-05-01"), day("2025-06-04"), TODAY), "archive");
    assert.equal(routeWeather(day("2020-01-01"), day("2020-01-05"), TODAY), "archive");
    assert.equal(routeWeather(day("2025-03-11"), day("2025-06-04"), TODAY), "archive");
  });
  it("splits a range that starts more than 90 days ago and ends in the last 5 days (archive lags behind)", () => {
    // the longest range get_weather accepts, ending today
    assert.deepEqual(checkDates("2025-03-11", "2025-06-10", TODAY), { start: day("2025-03-11"), end: TODAY });
    assert.equal(routeWeather(day("2025-03-11"), TODAY, TODAY), "archive+forecast");
    assert.equal(routeWeather(day("2025-03-11"), day("2025-06-05"), TODAY), "archive+forecast");
    assert.equal(
      routeWeather(day("2025-03-12"), TODAY, TODAY),
      "forecast",
      "90 days back the forecast API still answers",
    );
  });
  it("picks reference years that lie completely in the archive", () => {
    assert.deepEqual(referenceShifts(day("2025-08-01"), day("2025-08-03"), TODAY, 3), [1, 2, 3]);
    assert.deepEqual(referenceShifts(day("2026-12-30"), day("2027-01-02"), TODAY, 3), [2, 3, 4]);
    assert.deepEqual(referenceShifts(day("2025-06-20"), day("2025-07-01"), TODAY, 3), [1, 2, 3]);
    assert.deepEqual(
      referenceShifts(day("2025-08-01"), day("2025-08-03"), TODAY),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      "ten years by default",
    );
  });
});

describe("OnlineWeather against a fake Open-Meteo", () => {
  let fake: FakeUpstream;
  let weather: OnlineWeather;
  before(async () => {
    fake = await startFakeUpstream(() => ({ status: 404, json: {} }));
    const http = new HttpJsonClient({ userAgent: "t", timeoutMs: 2000, retries: 0, backoffMs: 1, maxBackoffMs: 1 });
    weather = new OnlineWeather(
      new OpenMeteoClient(http, new NoCache(), { forecastUrl: `${fake.url}/fc`, archiveUrl: `${fake.url}/ar` }),
    );
  });
  after(() => fake.close());

  const serve = () =>
    fake.setHandler((req) => {
      const dates = isoDates(req.query.get("start_date")!, req.query.get("end_date")!);
      const year = Number(dates[0]!.slice(0, 4));
      const kind = req.path === "/fc/v1/forecast" ? 100 : req.path === "/ar/v1/archive" ? 0 : NaN;
      // the value encodes where it came from: forecast +100, archive by year
      return {
        json: openMeteoDaily(dates, () => ({
          tmin: 10,
          tmax: kind + (year - 2000),
          precip: year % 2 ? 2 : 0,
          wind: 10 + (year % 3),
          code: year % 2 ? 61 : 1,
        })),
      };
    });

  it("routes a near range to the forecast endpoint", async () => {
    serve();
    const n = fake.requests.length;
    const r = await weather.daily({ lat: 41.39, lon: 2.17, start: TODAY, end: day("2025-06-12"), today: TODAY });
    assert.equal(r.source, "forecast");
    assert.equal(r.is_estimate, false);
    assert.equal(r.reference_years, null);
    assert.equal(fake.requests.length - n, 1);
    assert.equal(fake.requests[n]!.path, "/fc/v1/forecast");
    assert.deepEqual(
      r.days.map((d) => d.tmax_c),
      [125, 125, 125],
    );
  });

  it("routes a past range to the archive endpoint", async () => {
    serve();
    const n = fake.requests.length;
    const r = await weather.daily({
      lat: 41.39,
      lon: 2.17,
      start: day("2024-03-01"),
      end: day("2024-03-02"),
      today: TODAY,
    });
    assert.equal(r.source, "archive");
    assert.equal(r.is_estimate, false);
    assert.equal(fake.requests[n]!.path, "/ar/v1/archive");
    assert.deepEqual(
      r.days.map((d) => d.date),
      ["2024-03-01", "2024-03-02"],
    );
  });

  it("takes the old part of a range from the archive and its last days from the forecast API", async () => {
    serve();
    const n = fake.requests.length;
    const r = await weather.daily({ lat: 41.39, lon: 2.17, start: day("2025-03-11"), end: TODAY, today: TODAY });
    const asked = fake.requests
      .slice(n)
      .map((q) => `${q.path} ${q.query.get("start_date")}..${q.query.get("end_date")}`)
      .sort();
    assert.deepEqual(asked, ["/ar/v1/archive 2025-03-11..2025-06-04", "/fc/v1/forecast 2025-06-05..2025-06-10"]);
    assert.deepEqual(
      r.days.map((d) => d.date),
      isoDates("2025-03-11", "2025-06-10"),
      "every day once, in order",
    );
    assert.ok(
      r.days.every((d) => d.tmax_c === (d.date < "2025-06-05" ? 25 : 125)),
      "old days measured, recent days from the forecast API",
    );
    assert.equal(r.source, "archive+forecast", "not only measured values");
    assert.equal(r.is_estimate, false);
    assert.match(r.note, /Archiv .* bis 2025-06-04; die Tage ab 2025-06-05 stammen aus der Open-Meteo-Vorhersage-API/);
  });

  it("averages the same days of the ten most recent years for a far-future range", async () => {
    serve();
    const n = fake.requests.length;
    const r = await weather.daily({
      lat: 41.39,
      lon: 2.17,
      start: day("2025-08-01"),
      end: day("2025-08-03"),
      today: TODAY,
    });
    assert.equal(r.source, "historical_fallback");
    assert.equal(r.is_estimate, true);
    const years = [2024, 2023, 2022, 2021, 2020, 2019, 2018, 2017, 2016, 2015];
    assert.deepEqual(r.reference_years, years);
    const asked = fake.requests
      .slice(n)
      .map((q) => `${q.path} ${q.query.get("start_date")}..${q.query.get("end_date")}`)
      .sort();
    assert.deepEqual(
      asked,
      [...years].reverse().map((y) => `/ar/v1/archive ${y}-08-01..${y}-08-03`),
    );
    assert.deepEqual(
      r.days.map((d) => d.date),
      ["2025-08-01", "2025-08-02", "2025-08-03"],
    );
    const d0 = r.days[0]!;
    assert.equal(d0.tmax_c, 19.5); // mean of 24 … 15
    assert.equal(d0.precip_mm, 1); // 2 mm in the five odd years, 0 in the even ones
    assert.equal(d0.wind_max_kmh, 11.1); // mean of 10 + year % 3
    assert.equal(d0.weather_code, 61); // 61 and 1 five times each: the higher code wins the tie
    assert.match(r.note, /2015, 2016, 2017, 2018, 2019, 2020, 2021, 2022, 2023, 2024 \(10 von 10 Jahren/);
  });

  it("maps 29 February onto 28 February in non-leap reference years", async () => {
    serve();
    const today = day("2027-06-01");
    const r = await weather.daily({ lat: 41.39, lon: 2.17, start: day("2028-02-28"), end: day("2028-02-29"), today });
    assert.equal(r.source, "historical_fallback");
    assert.deepEqual(r.reference_years, [2027, 2026, 2025, 2024, 2023, 2022, 2021, 2020, 2019, 2018]);
    assert.equal(r.days.length, 2);
    assert.deepEqual(r.days[1], { ...r.days[0]!, date: "2028-02-29" });
  });
});
