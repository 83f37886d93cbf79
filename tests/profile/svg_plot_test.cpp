// The sweep's chart (profile/svg_plot.hpp): one panel per series over a
// shared x axis labelled at every swept value, byte axes in binary units.
#include "symshape/profile/svg_plot.hpp"

#include <gtest/gtest.h>

#include <string>

namespace symshape::profile {
namespace {

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

PlotSpec sweep(std::vector<double> x, std::vector<double> flops, std::vector<double> bytes) {
  PlotSpec p;
  p.title = "t";
  p.x_label = "seq";
  p.x = std::move(x);
  p.series = {{"FLOPs", "#1f77b4", std::move(flops), PlotUnit::Count},
              {"peak activation memory", "#d62728", std::move(bytes), PlotUnit::Bytes}};
  return p;
}

TEST(SvgPlot, OnePanelPerSeriesAndEverySweptValueLabelled) {
  const std::string svg = svg_plot(sweep({1, 2, 4, 8192}, {1e3, 2e3, 4e3, 8.2e6}, {1024, 2048, 4096, 8.6e9}));
  EXPECT_EQ(count(svg, "stroke=\"#333\""), 2u);  // two frames
  for (const char* label : {">1</text>", ">2</text>", ">4</text>", ">8192</text>"})
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  EXPECT_NE(svg.find("seq (log scale)"), std::string::npos);
  EXPECT_NE(svg.find("GiB</text>"), std::string::npos);  // bytes in binary units
  EXPECT_EQ(svg.find("G</text>", svg.find("peak activation memory")), std::string::npos);
  EXPECT_EQ(svg.find("axis)"), std::string::npos);  // no twin-axis legend
}

TEST(SvgPlot, LinearByteAxisStepsInKibibytes) {
  const std::string svg = svg_plot(sweep({1, 2, 3}, {17034, 34068, 51102}, {1024, 2048, 3072}));
  for (const char* label : {">0 B</text>", ">1 KiB</text>", ">2 KiB</text>", ">3 KiB</text>", ">20k</text>"})
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  EXPECT_EQ(svg.find("e+"), std::string::npos);
}

}  // namespace
}  // namespace symshape::profile
