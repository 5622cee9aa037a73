#include "bench_plot.hpp"

#include <algorithm>
#include <cerrno>
#include <clocale>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string_view>

namespace tessera::bench {
namespace {

constexpr double kWidth = 720;
constexpr double kHeight = 440;
// Left margin leaves room for y tick labels such as "1250" plus the rotated axis label.
constexpr double kLeft = 72;
constexpr double kRight = 20;
constexpr double kTop = 40;
constexpr double kBottom = 56;
constexpr double kPlotW = kWidth - kLeft - kRight;
constexpr double kPlotH = kHeight - kTop - kBottom;

// Okabe-Ito, reordered so the first series get the most distinct hues and yellow, which is hard
// to see on white, comes last.
constexpr const char* kPalette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                    "#E69F00", "#56B4E9", "#000000", "#F0E442"};
constexpr std::size_t kPaletteSize = sizeof(kPalette) / sizeof(kPalette[0]);

// snprintf honours LC_NUMERIC, so a benchmark that called setlocale() could otherwise emit
// "1,5" and break both the SVG coordinates and the tick labels.
std::string c_locale_number(const char* buf) {
  std::string s(buf);
  const char* dp = std::localeconv()->decimal_point;
  if (dp == nullptr || dp[0] == '\0' || std::strcmp(dp, ".") == 0) return s;
  // Rebuilt by appending (GCC 12 warns -Wrestrict, a false positive, on
  // an in-place replace of the separator).
  const std::string_view from(dp);
  std::string out;
  out.reserve(s.size());
  for (std::size_t pos = 0; pos < s.size();) {
    if (s.compare(pos, from.size(), from) == 0) {
      out += '.';
      pos += from.size();
    } else {
      out += s[pos++];
    }
  }
  return out;
}

std::string coord(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.2f", v);
  return c_locale_number(buf);
}

std::string tick_label(double v) {
  // Values within rounding noise of zero (e.g. 3 * 0.1 - 0.3) would otherwise print as 5.55e-17.
  if (std::fabs(v) < 1e-12) v = 0;
  char buf[64];
  // Powers of two up to 2^30 read better in full than as "1.04858e+06".
  if (v == std::floor(v) && std::fabs(v) < 1e10) {
    std::snprintf(buf, sizeof(buf), "%.0f", v);
  } else {
    std::snprintf(buf, sizeof(buf), "%g", v);
  }
  return c_locale_number(buf);
}

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // XML 1.0 forbids most control characters even when escaped; dropping them keeps the
        // file parseable whatever ends up in a label.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') break;
        out += c;
    }
  }
  return out;
}

// Rough rendered width, enough to size the legend box; counts UTF-8 code points, not bytes.
double text_width(std::string_view text, double font_px) {
  std::size_t chars = 0;
  for (const char c : text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++chars;
  }
  return static_cast<double>(chars) * font_px * 0.58;
}

// Smallest of {1, 2, 2.5, 5, 10} x 10^k that is >= v (v > 0).
double nice_at_least(double v) {
  const double p = std::pow(10.0, std::floor(std::log10(v)));
  for (const double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (m * p >= v * (1 - 1e-12)) return m * p;
  }
  return 10 * p;
}

struct YAxis {
  double top = 1;
  double step = 0.2;
};

// The top keeps a few percent of headroom so a peak line just under a round number does not
// merge with the frame. Each mantissa gets a step that yields five intervals with short labels.
YAxis y_axis_for(double y_max) {
  const double p = std::pow(10.0, std::floor(std::log10(y_max)));
  for (double scale : {p, 10 * p}) {
    for (const double m : {1.0, 2.0, 2.5, 5.0}) {
      const double top = m * scale;
      if (top > y_max * 1.04) return {top, top / 5};
    }
  }
  return {100 * p, 20 * p};  // unreachable: 20 * p > 1.04 * y_max always
}

struct XAxis {
  double lo = 0, hi = 1;      // in axis units: log2(x) when log2_x, else x
  std::vector<double> ticks;  // data values
};

XAxis x_axis_for(double x_min, double x_max, bool log2_x) {
  XAxis a;
  if (log2_x) {
    // Snapping to enclosing powers of two guarantees at least one tick even for odd ranges.
    int e_lo = static_cast<int>(std::floor(std::log2(x_min) + 1e-9));
    int e_hi = static_cast<int>(std::ceil(std::log2(x_max) - 1e-9));
    if (e_lo == e_hi) {
      --e_lo;
      ++e_hi;
    }
    a.lo = e_lo;
    a.hi = e_hi;
    // Wide ranges (e.g. 1..2^30) would crowd the axis; keep it to about a dozen labels.
    const int stride = std::max(1, (e_hi - e_lo + 1 + 11) / 12);
    for (int e = e_lo; e <= e_hi; e += stride) a.ticks.push_back(std::ldexp(1.0, e));
    return a;
  }
  if (x_max - x_min <= 0) {
    const double pad = std::max(std::fabs(x_min) * 0.1, 1.0);
    x_min -= pad;
    x_max += pad;
  }
  const double step = nice_at_least((x_max - x_min) / 6);
  a.lo = std::floor(x_min / step + 1e-9) * step;
  a.hi = std::ceil(x_max / step - 1e-9) * step;
  const int n = static_cast<int>(std::lround((a.hi - a.lo) / step));
  for (int i = 0; i <= n; ++i) a.ticks.push_back(a.lo + i * step);
  return a;
}

bool usable(double x, double y, bool log2_x) {
  return std::isfinite(x) && std::isfinite(y) && y > 0 && (!log2_x || x > 0);
}

}  // namespace

bool write_svg(const std::string& path, const Plot& plot, std::string* error) {
  auto fail = [&](const std::string& message) {
    if (error != nullptr) *error = message;
    return false;
  };

  double x_min = std::numeric_limits<double>::infinity();
  double x_max = -x_min;
  double y_max = 0;
  for (const PlotSeries& s : plot.series) {
    const std::size_t n = std::min(s.x.size(), s.y.size());
    for (std::size_t i = 0; i < n; ++i) {
      if (!usable(s.x[i], s.y[i], plot.log2_x)) continue;
      x_min = std::min(x_min, s.x[i]);
      x_max = std::max(x_max, s.x[i]);
      y_max = std::max(y_max, s.y[i]);
    }
  }
  if (y_max <= 0)
    return fail("nothing to plot in " + path + ": no series has a positive finite point");

  const XAxis xa = x_axis_for(x_min, x_max, plot.log2_x);
  const YAxis ya = y_axis_for(y_max);
  auto px = [&](double x) {
    const double u = plot.log2_x ? std::log2(x) : x;
    return kLeft + (u - xa.lo) / (xa.hi - xa.lo) * kPlotW;
  };
  auto py = [&](double y) { return kTop + kPlotH - y / ya.top * kPlotH; };

  std::string svg;
  svg += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + coord(kWidth) + "\" height=\"" +
         coord(kHeight) + "\" viewBox=\"0 0 " + coord(kWidth) + " " + coord(kHeight) +
         "\" font-family=\"sans-serif\">\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  svg += "<text x=\"" + coord(kLeft + kPlotW / 2) +
         "\" y=\"24\" font-size=\"15\" font-weight=\"bold\" text-anchor=\"middle\">" +
         xml_escape(plot.title) + "</text>\n";

  // Grid first so that the data is painted over it.
  svg += "<g stroke=\"#e3e3e3\" stroke-width=\"1\">\n";
  const int y_intervals = static_cast<int>(std::lround(ya.top / ya.step));
  for (int i = 1; i < y_intervals; ++i) {
    const std::string y = coord(py(i * ya.step));
    svg += "<line x1=\"" + coord(kLeft) + "\" y1=\"" + y + "\" x2=\"" + coord(kLeft + kPlotW) +
           "\" y2=\"" + y + "\"/>\n";
  }
  for (const double t : xa.ticks) {
    const std::string x = coord(px(t));
    svg += "<line x1=\"" + x + "\" y1=\"" + coord(kTop) + "\" x2=\"" + x + "\" y2=\"" +
           coord(kTop + kPlotH) + "\"/>\n";
  }
  svg += "</g>\n";
  svg += "<rect x=\"" + coord(kLeft) + "\" y=\"" + coord(kTop) + "\" width=\"" + coord(kPlotW) +
         "\" height=\"" + coord(kPlotH) + "\" fill=\"none\" stroke=\"#444444\"/>\n";

  svg += "<g font-size=\"11\" fill=\"#222222\">\n";
  for (int i = 0; i <= y_intervals; ++i) {
    svg += "<text x=\"" + coord(kLeft - 6) + "\" y=\"" + coord(py(i * ya.step) + 4) +
           "\" text-anchor=\"end\">" + tick_label(i * ya.step) + "</text>\n";
  }
  for (const double t : xa.ticks) {
    svg += "<text x=\"" + coord(px(t)) + "\" y=\"" + coord(kTop + kPlotH + 16) +
           "\" text-anchor=\"middle\">" + tick_label(t) + "</text>\n";
  }
  svg += "</g>\n";
  svg += "<text x=\"" + coord(kLeft + kPlotW / 2) + "\" y=\"" + coord(kHeight - 12) +
         "\" font-size=\"13\" text-anchor=\"middle\">" + xml_escape(plot.x_label) + "</text>\n";
  const std::string y_mid = coord(kTop + kPlotH / 2);
  svg += "<text x=\"18\" y=\"" + y_mid + "\" font-size=\"13\" text-anchor=\"middle\" " +
         "transform=\"rotate(-90 18 " + y_mid + ")\">" + xml_escape(plot.y_label) + "</text>\n";

  struct LegendEntry {
    const PlotSeries* series;
    const char* colour;
  };
  std::vector<LegendEntry> legend;
  for (std::size_t si = 0; si < plot.series.size(); ++si) {
    const PlotSeries& s = plot.series[si];
    // Colour follows the series index, not the plotted index, so a peer missing from one run
    // does not recolour the others between plots.
    const char* colour = kPalette[si % kPaletteSize];
    const std::string dash = s.dashed ? " stroke-dasharray=\"6 4\"" : "";
    const std::size_t n = std::min(s.x.size(), s.y.size());
    std::string segment, markers;
    int segment_points = 0;
    auto flush = [&] {
      if (segment_points >= 2) {
        svg += "<polyline fill=\"none\" stroke=\"" + std::string(colour) +
               "\" stroke-width=\"2\" stroke-linejoin=\"round\"" + dash + " points=\"" + segment +
               "\"/>\n";
      }
      segment.clear();
      segment_points = 0;
    };
    for (std::size_t i = 0; i < n; ++i) {
      if (!usable(s.x[i], s.y[i], plot.log2_x)) {
        // Bridging an unmeasured point would draw a value nobody measured.
        flush();
        continue;
      }
      const std::string x = coord(px(s.x[i]));
      const std::string y = coord(py(s.y[i]));
      if (segment_points > 0) segment += ' ';
      segment += x + "," + y;
      ++segment_points;
      markers += "<circle cx=\"" + x + "\" cy=\"" + y + "\" r=\"3\"/>\n";
    }
    flush();
    if (markers.empty()) continue;
    svg += "<g fill=\"" + std::string(colour) + "\">\n" + markers + "</g>\n";
    legend.push_back({&s, colour});
  }

  // Benchmark curves rise with size, so the top-left corner is usually the emptiest spot.
  constexpr double kRow = 18;
  constexpr double kSwatch = 24;
  double label_w = 0;
  for (const LegendEntry& e : legend) label_w = std::max(label_w, text_width(e.series->label, 12));
  const double box_x = kLeft + 10;
  const double box_y = kTop + 10;
  const double box_w = 8 + kSwatch + 6 + label_w + 8;
  const double box_h = 6 + kRow * static_cast<double>(legend.size()) + 2;
  svg += "<g font-size=\"12\">\n";
  svg += "<rect x=\"" + coord(box_x) + "\" y=\"" + coord(box_y) + "\" width=\"" + coord(box_w) +
         "\" height=\"" + coord(box_h) +
         "\" fill=\"#ffffff\" fill-opacity=\"0.9\" stroke=\"#999999\"/>\n";
  for (std::size_t i = 0; i < legend.size(); ++i) {
    const LegendEntry& e = legend[i];
    const double cy = box_y + 6 + kRow * (static_cast<double>(i) + 0.5);
    const std::string y = coord(cy);
    svg += "<line x1=\"" + coord(box_x + 8) + "\" y1=\"" + y + "\" x2=\"" +
           coord(box_x + 8 + kSwatch) + "\" y2=\"" + y + "\" stroke=\"" + e.colour +
           "\" stroke-width=\"2\"" + (e.series->dashed ? " stroke-dasharray=\"6 4\"" : "") + "/>\n";
    svg += "<circle cx=\"" + coord(box_x + 8 + kSwatch / 2) + "\" cy=\"" + y +
           "\" r=\"3\" fill=\"" + e.colour + "\"/>\n";
    svg += "<text x=\"" + coord(box_x + 8 + kSwatch + 6) + "\" y=\"" + coord(cy + 4) + "\">" +
           xml_escape(e.series->label) + "</text>\n";
  }
  svg += "</g>\n</svg>\n";

  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return fail("cannot open " + path + " for writing: " + std::strerror(errno));
  const bool wrote = std::fwrite(svg.data(), 1, svg.size(), f) == svg.size();
  // A full disk may only surface when the buffer is flushed, so fclose's result counts too.
  const int write_errno = errno;
  const bool closed = std::fclose(f) == 0;
  if (!wrote || !closed) {
    return fail("cannot write " + path + ": " + std::strerror(wrote ? errno : write_errno));
  }
  return true;
}

}  // namespace tessera::bench
