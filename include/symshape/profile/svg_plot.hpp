// A small SVG line chart for `symshape profile --sweep --plot`: two series
// against one x variable, each on its own y axis (left and right, coloured
// like its line), log scales on the axes whose data span two decades or more,
// labelled axes with units, a legend. Standard library only.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace symshape::profile {

struct PlotSeries {
  std::string label;  // legend and axis label, e.g. "FLOPs"
  std::string color;  // "#1f77b4"
  std::vector<double> y;
};

struct PlotSpec {
  std::string title;
  std::string subtitle;  // e.g. the other symbols' values
  std::string x_label;
  std::vector<double> x;
  PlotSeries left, right;
};

namespace svg_detail {

// 1234567 -> "1.23M" (k, M, G, T, P, E: powers of 1000).
inline std::string si(double v) {
  static const char* const kSuffix[] = {"", "k", "M", "G", "T", "P", "E"};
  int i = 0;
  while (std::fabs(v) >= 1000 && i < 6) {
    v /= 1000;
    ++i;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g%s", v, kSuffix[i]);
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

  double map(double v) const {
    const double t = log ? (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo)) : (v - lo) / (hi - lo);
    return p0 + t * (p1 - p0);
  }
  bool shows(double v) const { return std::isfinite(v) && (!log || v > 0); }
};

// A y axis starts at 0 (linear) or at the power of ten below its data (log)
// and ends at the power of ten above; the x axis spans its data exactly.
enum class PlotAxis { X, Y };
inline Axis make_axis(const std::vector<double>& data, double p0, double p1, PlotAxis which) {
  const bool is_y = which == PlotAxis::Y;
  Axis a;
  a.p0 = p0;
  a.p1 = p1;
  double lo = INFINITY, hi = -INFINITY, pos_lo = INFINITY;
  for (double v : data) {
    if (!std::isfinite(v)) continue;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    if (v > 0) pos_lo = std::min(pos_lo, v);
  }
  if (!std::isfinite(lo)) lo = 0, hi = 1;
  a.log = std::isfinite(pos_lo) && hi / pos_lo >= 100;
  if (a.log) {
    a.lo = is_y ? std::pow(10, std::floor(std::log10(pos_lo))) : pos_lo;
    a.hi = is_y ? std::pow(10, std::ceil(std::log10(hi))) : hi;
  } else {
    a.lo = is_y ? std::min(0.0, lo) : lo;
    a.hi = hi > a.lo ? hi : a.lo + 1;
  }
  return a;
}

// Tick values: the powers of ten of a log axis, else about 5 round steps.
inline std::vector<double> ticks(const Axis& a) {
  std::vector<double> out;
  if (a.log) {
    const int step = std::max(1, static_cast<int>(std::log10(a.hi / a.lo) / 8) + 1);
    for (double v = std::pow(10, std::ceil(std::log10(a.lo) - 1e-9)); v <= a.hi * 1.0001; v *= std::pow(10, step))
      out.push_back(v);
    return out;
  }
  const double raw = (a.hi - a.lo) / 5;
  const double mag = std::pow(10, std::floor(std::log10(raw)));
  const double step = raw / mag < 2 ? 2 * mag : raw / mag < 5 ? 5 * mag : 10 * mag;
  for (double v = std::ceil(a.lo / step) * step; v <= a.hi + step * 1e-9; v += step) out.push_back(v);
  return out;
}

inline std::string text(double x, double y, const std::string& s, const char* anchor, const std::string& extra = "") {
  return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" text-anchor=\"" + anchor + "\"" + extra + ">" + escape(s) +
         "</text>\n";
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

// The chart as an SVG document (800 x 480).
inline std::string svg_plot(const PlotSpec& p) {
  using namespace svg_detail;
  const double left = 90, right = 710, top = 60, bottom = 400;
  const Axis x = make_axis(p.x, left, right, PlotAxis::X);
  const Axis yl = make_axis(p.left.y, bottom, top, PlotAxis::Y);
  const Axis yr = make_axis(p.right.y, bottom, top, PlotAxis::Y);
  std::string s =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"800\" height=\"480\" viewBox=\"0 0 800 480\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"800\" height=\"480\" fill=\"white\"/>\n";
  s += text(400, 26, p.title, "middle", " font-size=\"16\" font-weight=\"bold\"");
  if (!p.subtitle.empty()) s += text(400, 46, p.subtitle, "middle", " fill=\"#555\"");
  for (double t : ticks(x)) {
    const double px = x.map(t);
    s += "<line x1=\"" + num(px) + "\" y1=\"" + num(top) + "\" x2=\"" + num(px) + "\" y2=\"" + num(bottom) +
         "\" stroke=\"#e5e5e5\"/>\n";
    s += text(px, bottom + 18, si(t), "middle");
  }
  for (double t : ticks(yl)) {
    const double py = yl.map(t);
    s += "<line x1=\"" + num(left) + "\" y1=\"" + num(py) + "\" x2=\"" + num(right) + "\" y2=\"" + num(py) +
         "\" stroke=\"#e5e5e5\"/>\n";
    s += text(left - 6, py + 4, si(t), "end", " fill=\"" + p.left.color + "\"");
  }
  for (double t : ticks(yr)) s += text(right + 6, yr.map(t) + 4, si(t), "start", " fill=\"" + p.right.color + "\"");
  s += "<rect x=\"" + num(left) + "\" y=\"" + num(top) + "\" width=\"" + num(right - left) + "\" height=\"" +
       num(bottom - top) + "\" fill=\"none\" stroke=\"#333\"/>\n";
  const std::string xl = p.x_label + (x.log ? " (log scale)" : "");
  s += text((left + right) / 2, bottom + 42, xl, "middle", " font-size=\"14\"");
  const std::string ll = p.left.label + (yl.log ? " (log scale)" : "");
  const std::string rl = p.right.label + (yr.log ? " (log scale)" : "");
  s += text(
      24, (top + bottom) / 2, ll, "middle",
      " font-size=\"14\" fill=\"" + p.left.color + "\" transform=\"rotate(-90 24 " + num((top + bottom) / 2) + ")\"");
  s += text(
      776, (top + bottom) / 2, rl, "middle",
      " font-size=\"14\" fill=\"" + p.right.color + "\" transform=\"rotate(90 776 " + num((top + bottom) / 2) + ")\"");
  s += polyline(x, yl, p.x, p.left) + polyline(x, yr, p.x, p.right);
  // The legend, top left inside the frame.
  s += "<rect x=\"" + num(left + 10) + "\" y=\"" + num(top + 10) +
       "\" width=\"330\" height=\"48\" fill=\"white\" stroke=\"#999\"/>\n";
  const PlotSeries* series[] = {&p.left, &p.right};
  for (int i = 0; i < 2; ++i) {
    const double y = top + 28 + 20 * i;
    s += "<line x1=\"" + num(left + 18) + "\" y1=\"" + num(y - 4) + "\" x2=\"" + num(left + 42) + "\" y2=\"" +
         num(y - 4) + "\" stroke=\"" + series[i]->color + "\" stroke-width=\"2\"/>\n";
    s += text(left + 48, y, series[i]->label + (i == 0 ? " (left axis)" : " (right axis)"), "start");
  }
  return s + "</svg>\n";
}

}  // namespace symshape::profile
