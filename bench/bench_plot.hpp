// Minimal SVG line plots for benchmark results, so a run can leave a picture next to its CSV
// without pulling a plotting stack (Python, gnuplot) into the build or the CI image.
#pragma once

#include <string>
#include <vector>

namespace tessera::bench {

struct PlotSeries {
  std::string label;         // legend text, e.g. "tessera", "OpenBLAS (SkylakeX)"
  std::vector<double> x, y;  // same length; points with y <= 0 or non-finite are skipped (a peer
                             // not measured), and the line is broken there rather than bridged
  bool dashed = false;       // e.g. the FMA peak line
};

struct Plot {
  std::string title;  // e.g. "sgemm, 1 thread, AMD EPYC (avx512)"
  std::string x_label = "n (m = n = k)";
  std::string y_label = "GFLOP/s";
  bool log2_x = true;  // sizes 32..2048: log2 axis with ticks at the powers of two in range
  std::vector<PlotSeries> series;
};

// Writes `plot` as a standalone SVG file (about 720 x 440 px). Returns false
// with a message in *error when the file cannot be written or when there is
// nothing to plot (no series with a positive finite point).
bool write_svg(const std::string& path, const Plot& plot, std::string* error);

}  // namespace tessera::bench
