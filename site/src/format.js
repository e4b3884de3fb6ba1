// The one formatter of the page: how a reader sees the core's numbers, counts and bytes.
// Formatting only: every value comes from the core; these functions round and label it.

/**
 * A number as a reader should see it: up to `digits` decimals, trailing zeros dropped, a true
 * minus sign, exact zero as "0". Formatting only: the value itself comes from the core.
 */
export function fmt(x, digits = 4) {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "∞" : "−∞";
  if (x === 0) return "0";
  const abs = Math.abs(x);
  let s;
  if (abs >= 1e6 || abs < 10 ** -digits) s = x.toExponential(Math.min(digits - 1, 3)).replace(/\.?0+e/, "e");
  else {
    s = x.toFixed(digits);
    if (s.includes(".")) s = s.replace(/\.?0+$/, "");
  }
  if (s === "-0") s = "0";
  return s.replace("-", "−");
}

/**
 * A number as a field shows it, for the reader to read and edit: at most 15 significant digits,
 * the most a double always gives back, so that 0.1 + 0.2 shows as 0.3, not 0.30000000000000004,
 * and 10000^(−3/4) as 0.001; an emptied field's NaN as nothing. The state keeps the exact value.
 */
export function fieldValue(x) {
  if (typeof x !== "number" || !Number.isFinite(x)) return Number.isNaN(x) ? "" : String(x);
  return String(Number(x.toPrecision(15)));
}

/** A vector as "(a, b, c)". */
export function fmtVec(xs, digits = 4) {
  return "(" + xs.map((x) => fmt(x, digits)).join(", ") + ")";
}

/**
 * A percentage of a probability, e.g. 0.4249 → "42.5%". A share too small for `digits` decimals
 * keeps its first two significant digits, written out while that takes at most 6 decimals
 * (0.000049 → "0.0049%", not "5e−3%" or "0%"), as an exponent beyond ("3.2e−9%").
 */
export function pct(p, digits = 1) {
  const v = p * 100;
  const abs = Math.abs(v);
  if (abs > 0 && abs < 10 ** -digits) {
    const decimals = 1 - Math.floor(Math.log10(abs));
    return fmt(v, decimals <= 6 ? decimals : 2) + "%";
  }
  return fmt(v, digits) + "%";
}

/**
 * A number with thousands separators and at most `maxFraction` decimals, trailing zeros dropped:
 * what toLocaleString("en", { maximumFractionDigits }) writes, without Intl, whose first use
 * loads the locale's data (about 65 ms of a cold load) and which makes a formatter per call.
 */
export function grouped(x, maxFraction = 3) {
  if (!Number.isFinite(x)) return fmt(x);
  // Past 10^21 JavaScript writes decimals in exponent form; no figure shows such a count grouped.
  if (Math.abs(x) >= 1e21) return x.toLocaleString("en", { maximumFractionDigits: maxFraction });
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  // The shortest decimal that reads back as |x| (as Intl starts from), rounded half away from
  // zero at maxFraction decimals, digit by digit.
  const abs = Math.abs(x);
  let [whole, fraction = ""] = (abs < 1e-6 ? "0" : String(abs)).split(".");
  if (fraction.length > maxFraction) {
    const up = fraction[maxFraction] >= "5";
    fraction = fraction.slice(0, maxFraction);
    if (up) {
      const digits = (whole + fraction).split("").map(Number);
      let i = digits.length - 1;
      while (i >= 0 && digits[i] === 9) digits[i--] = 0;
      if (i >= 0) digits[i] += 1;
      else digits.unshift(1);
      const all = digits.join("");
      whole = all.slice(0, all.length - fraction.length);
      fraction = all.slice(all.length - fraction.length);
    }
  }
  fraction = fraction.replace(/0+$/, "");
  const withCommas = whole.replace(/\B(?=(\d{3})+$)/g, ",");
  return `${sign}${withCommas}${fraction ? `.${fraction}` : ""}`;
}

/**
 * A count with thousands separators, or in scientific notation when it has more than `digits`
 * digits (formatting only).
 */
export function fmtCount(x, digits = 15) {
  if (!Number.isFinite(x)) return fmt(x);
  if (Math.abs(x) < 10 ** digits) return grouped(x, 2);
  const [mant, exp] = x.toExponential(3).split("e");
  return `${mant.replace(/\.?0+$/, "")} × 10${superscript(Number(exp))}`;
}

const BYTE_UNITS = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"];

/** Bytes in binary units: 16384 → "16 KiB" (unit conversion for display). */
export function fmtBytes(bytes) {
  let v = bytes,
    u = 0;
  while (v >= 1024 && u < BYTE_UNITS.length - 1) {
    v /= 1024;
    u += 1;
  }
  if (u === 0) return `${fmt(v, 2)} byte${v === 1 ? "" : "s"}`;
  const digits = v < 10 ? 2 : v < 100 ? 1 : 0;
  return `${fmt(v, digits)} ${BYTE_UNITS[u]}`;
}

const SUPERSCRIPTS = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };
/** An integer as Unicode superscript digits: -3 → "⁻³". */
export function superscript(k) {
  return [...String(k)].map((ch) => SUPERSCRIPTS[ch]).join("");
}

/** Seconds in the unit that suits them: 0.00464 → "4.64 ms", 2.5e-5 → "25 µs" (display). */
export function fmtSeconds(seconds) {
  const abs = Math.abs(seconds);
  if (!Number.isFinite(seconds) || abs >= 1) return `${fmt(seconds, abs >= 100 ? 0 : 2)} s`;
  if (abs >= 1e-3) return `${fmt(seconds * 1e3, abs >= 0.1 ? 0 : abs >= 0.01 ? 1 : 2)} ms`;
  return `${fmt(seconds * 1e6, abs >= 1e-4 ? 0 : abs >= 1e-5 ? 1 : 2)} µs`;
}

/** A rate to three significant figures, thousands grouped: 215.48 → "215", 9.876 → "9.88" (display). */
export function fmtRate(x) {
  const abs = Math.abs(x);
  if (!Number.isFinite(x) || abs >= 100) return Number.isFinite(x) ? grouped(Math.round(x)) : fmt(x);
  return fmt(x, abs >= 10 ? 1 : abs >= 1 ? 2 : 3);
}
