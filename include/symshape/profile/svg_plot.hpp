// A small SVG chart for `symshape profile --sweep --plot`: series against one
// x variable, each in its own panel stacked over the next, sharing the x axis.
// Two quantities of different units on one pair of twin axes would each be
// scaled to their own range, so that curves of the same shape lie on each
// other and their crossings mean nothing; panels avoid both. An axis whose
// data span two decades or more is logarithmic; the x axis is labelled at each
// swept value (at most 16 of them), byte axes in KiB, MiB, GiB.
// Standard library only.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace symshape::profile {

enum class PlotUnit { Count, Bytes };

struct PlotSeries {
  std::string label;  // the panel's title and y axis label, e.g. "FLOPs"
  std::string color;  // "#1f77b4"
  std::vector<double> y;
  PlotUnit unit = PlotUnit::Count;
};

struct PlotSpec {
  std::string title;
  std::string subtitle;  // e.g. the other symbols' values
  std::string x_label;
  std::vector<double> x;
  std::vector<PlotSeries> series;  // one panel each, top to bottom
};

namespace svg_detail {

// 1234567 -> "1.23M" (k, M, G, T, P, E: powers of 1000); bytes -> "1.5 MiB"
// (powers of 1024), as the profile's tables write them.
inline std::string label_of(double v, PlotUnit unit) {
  static const char* const kSi[] = {"", "k", "M", "G", "T", "P", "E"};
  static const char* const kBinary[] = {" B", " KiB", " MiB", " GiB", " TiB", " PiB", " EiB"};
  const double base = unit == PlotUnit::Bytes ? 1024 : 1000;
  int i = 0;
  while (std::fabs(v) >= base && i < 6) {
    v /= base;
    ++i;
  }
  char buf[32];
  // Up to 1023 bytes need four digits ("1000 B", not "1e+03 B").
  std::snprintf(buf, sizeof buf, unit == PlotUnit::Bytes && i == 0 ? "%.4g%s" : "%.3g%s", v,
                unit == PlotUnit::Bytes ? kBinary[i] : kSi[i]);
  return buf;
}

inline std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

inline std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

// A scale from data to pixels: log10 when the positive data span >= 2 decades.
struct Axis {
  double lo = 0, hi = 1;
  bool log = false;
  double p0 = 0, p1 = 1;  // pixels of lo and hi
  PlotUnit unit = PlotUnit::Count;

  double map(double v) const {
    const double t = log ? (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo)) : (v - lo) / (hi - lo);
    return p0 + t * (p1 - p0);
  }
  bool shows(double v) const { return std::isfinite(v) && (!log || v > 0); }
};

// A y axis starts at 0 (linear) or at the power of the unit's base below its
// data (log) and ends at the power above; the x axis spans its data exactly.
enum class PlotAxis { X, Y };
inline Axis make_axis(const std::vector<double>& data, double p0, double p1, PlotAxis which,
                      PlotUnit unit = PlotUnit::Count) {
  const bool is_y = which == PlotAxis::Y;
  Axis a;
  a.p0 = p0;
  a.p1 = p1;
  a.unit = unit;
  double lo = INFINITY, hi = -INFINITY, pos_lo = INFINITY;
  for (double v : data) {
    if (!std::isfinite(v)) continue;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    if (v > 0) pos_lo = std::min(pos_lo, v);
  }
  if (!std::isfinite(lo)) lo = 0, hi = 1;
  a.log = std::isfinite(pos_lo) && hi / pos_lo >= 100;
  const double base = unit == PlotUnit::Bytes ? 2 : 10;  // bytes: powers of two, labelled in KiB, MiB...
  if (a.log) {
    const double lb = std::log(base);
    a.lo = is_y ? std::pow(base, std::floor(std::log(pos_lo) / lb)) : pos_lo;
    a.hi = is_y ? std::pow(base, std::ceil(std::log(hi) / lb)) : hi;
    if (a.hi <= a.lo) a.hi = a.lo * base;
  } else {
    a.lo = is_y ? std::min(0.0, lo) : lo;
    a.hi = hi > a.lo ? hi : a.lo + 1;
    if (is_y) a.hi = a.lo + (a.hi - a.lo) * 1.05;  // the largest point inside the frame
  }
  return a;
}

// Tick values of a y axis: powers of ten (of two for bytes, at most 8 of
// them) on a log axis, else about 5 round steps (of 1, 2 or 5 times a power
// of ten, or of 1024 for bytes).
inline std::vector<double> ticks(const Axis& a) {
  std::vector<double> out;
  if (a.log) {
    const double base = a.unit == PlotUnit::Bytes ? 2 : 10;
    const double span = std::log(a.hi / a.lo) / std::log(base);
    const double step = std::pow(base, std::max(1.0, std::ceil(span / 8)));
    for (double v = a.lo; v <= a.hi * 1.0001; v *= step) out.push_back(v);
    return out;
  }
  const double raw = (a.hi - a.lo) / 5;
  // Bytes step in the unit their labels use (KiB for a few thousand bytes).
  double scale = 1;
  if (a.unit == PlotUnit::Bytes)
    while (scale * 1024 <= std::max(std::fabs(a.hi), std::fabs(a.lo))) scale *= 1024;
  const double mag = scale * std::pow(10, std::floor(std::log10(raw / scale)));
  const double step = raw / mag < 2 ? 2 * mag : raw / mag < 5 ? 5 * mag : 10 * mag;
  for (double v = std::ceil(a.lo / step) * step; v <= a.hi + step * 1e-9; v += step) out.push_back(v);
  return out;
}

// The x axis is labelled at each swept value (they are few, and the last one
// matters most), as integers.
inline std::string x_label_of(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

inline std::string text(double x, double y, const std::string& s, const char* anchor, const std::string& extra = "") {
  return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" text-anchor=\"" + anchor + "\"" + extra + ">" + escape(s) +
         "</text>\n";
}

inline std::string line(double x1, double y1, double x2, double y2, const std::string& style) {
  return "<line x1=\"" + num(x1) + "\" y1=\"" + num(y1) + "\" x2=\"" + num(x2) + "\" y2=\"" + num(y2) + "\" " + style +
         "/>\n";
}

inline std::string polyline(const Axis& x, const Axis& y, const std::vector<double>& xs, const PlotSeries& s) {
  std::string points, marks;
  for (std::size_t i = 0; i < xs.size() && i < s.y.size(); ++i) {
    if (!x.shows(xs[i]) || !y.shows(s.y[i])) continue;
    const std::string px = num(x.map(xs[i])), py = num(y.map(s.y[i]));
    points += px + "," + py + " ";
    marks += "<circle cx=\"" + px + "\" cy=\"" + py + "\" r=\"3\" fill=\"" + s.color + "\"/>\n";
  }
  return "<polyline fill=\"none\" stroke=\"" + s.color + "\" stroke-width=\"2\" points=\"" + points + "\"/>\n" + marks;
}

}  // namespace svg_detail

// The chart as an SVG document: 800 wide, one panel of 200 pixels per series.
inline std::string svg_plot(const PlotSpec& p) {
  using namespace svg_detail;
  const double left = 100, right = 760, header = 70, panel = 200, gap = 30;
  const std::size_t n = std::max<std::size_t>(1, p.series.size());
  const double height = header + n * panel + (n - 1) * gap + 60;
  const Axis x = make_axis(p.x, left, right, PlotAxis::X);
  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"800\" height=\"" + num(height) +
                  "\" viewBox=\"0 0 800 " + num(height) + "\" font-family=\"sans-serif\" font-size=\"12\">\n" +
                  "<rect width=\"800\" height=\"" + num(height) + "\" fill=\"white\"/>\n";
  s += text(400, 26, p.title, "middle", " font-size=\"16\" font-weight=\"bold\"");
  if (!p.subtitle.empty()) s += text(400, 46, p.subtitle, "middle", " fill=\"#555\"");
  for (std::size_t k = 0; k < p.series.size(); ++k) {
    const PlotSeries& series = p.series[k];
    const double top = header + k * (panel + gap), bottom = top + panel;
    const Axis y = make_axis(series.y, bottom, top, PlotAxis::Y, series.unit);
    for (double t : p.x)
      if (x.shows(t)) s += line(x.map(t), top, x.map(t), bottom, "stroke=\"#e5e5e5\"");
    for (double t : ticks(y)) {
      s += line(left, y.map(t), right, y.map(t), "stroke=\"#e5e5e5\"");
      s += text(left - 6, y.map(t) + 4, label_of(t, series.unit), "end");
    }
    s += "<rect x=\"" + num(left) + "\" y=\"" + num(top) + "\" width=\"" + num(right - left) + "\" height=\"" +
         num(panel) + "\" fill=\"none\" stroke=\"#333\"/>\n";
    s += polyline(x, y, p.x, series);
    // The panel's title, inside it at the top left, in the series' colour.
    s += text(left + 8, top + 18, series.label + (y.log ? " (log scale)" : ""), "start",
              " font-size=\"14\" font-weight=\"bold\" fill=\"" + series.color + "\"");
  }
  // The shared x axis, labelled under the last panel.
  const double bottom = header + n * panel + (n - 1) * gap;
  for (double t : p.x)
    if (x.shows(t)) s += text(x.map(t), bottom + 18, x_label_of(t), "middle");
  s += text((left + right) / 2, bottom + 44, p.x_label + (x.log ? " (log scale)" : ""), "middle", " font-size=\"14\"");
  return s + "</svg>\n";
}

}  // namespace symshape::profile
