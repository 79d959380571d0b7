//===- MemoryPlot.cpp - The pool plan as an SVG picture -------*- C++ -*-===//
//
// This file implements emitMemoryPlot (`aotc --memory-plot=FILE.svg`): one
// panel per entry point, each planned buffer a box spanning its lifetime
// (program positions, left to right) and its bytes in the pool (offsets,
// bottom to top), with the pool size and the lower bound as lines and the
// largest buffers labelled. renderPng turns it into a PNG
// (`--memory-plot=FILE.png`) with librsvg's rsvg-convert.
//
//===----------------------------------------------------------------------===//

#include "aotc/ABI/Emitters.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <numeric>

namespace aotc {

namespace {

constexpr int kWidth = 960;        ///< the picture's width
constexpr int kPlotHeight = 360;   ///< one panel's plot area
constexpr int kLeft = 80, kRight = 150, kTop = 48, kBottom = 40;
constexpr int kPanelHeight = kTop + kPlotHeight + kBottom;
constexpr unsigned kLabelled = 6; ///< the largest buffers get their size
constexpr double kLabelWidth = 64, kLabelHeight = 14; ///< a label's room

/// Fill colors, one per buffer in turn (a qualitative palette).
constexpr const char *kColors[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
                                   "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
                                   "#9c755f", "#bab0ac"};

std::string mib(uint64_t bytes) {
  return llvm::formatv("{0:F2} MiB", bytes / 1048576.0).str();
}

/// `text` escaped for an SVG text node or attribute.
std::string escape(llvm::StringRef text) {
  std::string escaped;
  llvm::raw_string_ostream os(escaped);
  llvm::printHTMLEscaped(text, os);
  return escaped;
}

void panel(llvm::raw_ostream &os, const EntryPointSignature &entry,
           int top) {
  const std::vector<PlannedBuffer> &buffers = entry.buffers;
  uint64_t height = std::max<uint64_t>(entry.poolBytes, 1);
  int64_t first = 0, last = 1;
  if (!buffers.empty()) {
    first = llvm::min_element(buffers, [](auto &a, auto &b) {
              return a.start < b.start;
            })->start;
    last = llvm::max_element(buffers, [](auto &a, auto &b) {
             return a.end < b.end;
           })->end + 1;
  }
  double plotWidth = kWidth - kLeft - kRight;
  auto x = [&](int64_t position) {
    return kLeft + plotWidth * double(position - first) /
                       double(std::max<int64_t>(last - first, 1));
  };
  int bottom = top + kTop + kPlotHeight;
  auto y = [&](uint64_t offset) {
    return bottom - kPlotHeight * double(offset) / double(height);
  };

  os << llvm::formatv(
      "<text x=\"{0}\" y=\"{1}\" class=\"title\">{2}: pool {3}, lower bound "
      "{4}, {5} buffers</text>\n",
      kLeft, top + 24, escape(entry.name), mib(entry.poolBytes),
      mib(entry.poolLowerBound), buffers.size());
  os << llvm::formatv("<rect x=\"{0}\" y=\"{1}\" width=\"{2}\" height=\"{3}\" "
                      "class=\"frame\"/>\n",
                      kLeft, top + kTop, plotWidth, kPlotHeight);

  // The largest buffers whose box holds the label get their size.
  auto box = [&](const PlannedBuffer &buffer) {
    double left = x(buffer.start), right = x(buffer.end + 1);
    double upper = y(buffer.offset + buffer.size), lower = y(buffer.offset);
    return std::array<double, 4>{left, upper, std::max(right - left, 0.5),
                                 std::max(lower - upper, 0.5)};
  };
  std::vector<size_t> bySize(buffers.size());
  std::iota(bySize.begin(), bySize.end(), 0);
  llvm::sort(bySize, [&](size_t a, size_t b) {
    return buffers[a].size != buffers[b].size ? buffers[a].size > buffers[b].size
                                              : a < b;
  });
  llvm::DenseSet<size_t> labelled;
  for (size_t index : bySize) {
    auto [left, upper, width, height] = box(buffers[index]);
    if (labelled.size() < kLabelled && width >= kLabelWidth &&
        height >= kLabelHeight)
      labelled.insert(index);
  }
  for (auto [index, buffer] : llvm::enumerate(buffers)) {
    auto [left, upper, width, height] = box(buffer);
    os << llvm::formatv(
        "<rect x=\"{0:F1}\" y=\"{1:F1}\" width=\"{2:F1}\" height=\"{3:F1}\" "
        "fill=\"{4}\" class=\"buffer\" data-offset=\"{5}\" data-size=\"{6}\" "
        "data-first-use=\"{7}\" data-last-use=\"{8}\"><title>{6} bytes at "
        "offset {5}, positions {7}-{8}</title></rect>\n",
        left, upper, width, height, kColors[index % std::size(kColors)],
        buffer.offset, buffer.size, buffer.start, buffer.end);
    if (labelled.contains(index))
      os << llvm::formatv("<text x=\"{0:F1}\" y=\"{1:F1}\" class=\"label\">"
                          "{2}</text>\n",
                          left + width / 2, upper + height / 2 + 4,
                          mib(buffer.size));
  }

  // Offsets in MiB at quarters of the pool.
  for (int quarter = 0; quarter <= 4; ++quarter) {
    uint64_t bytes = entry.poolBytes * quarter / 4;
    os << llvm::formatv("<text x=\"{0}\" y=\"{1:F1}\" class=\"axis\">"
                        "{2:F1}</text>\n",
                        kLeft - 6, y(bytes) + 4, bytes / 1048576.0);
  }

  // The pool's size and the lower bound (the most bytes live at once).
  auto line = [&](uint64_t bytes, const char *kind, const char *text) {
    os << llvm::formatv("<line x1=\"{0}\" x2=\"{1}\" y1=\"{2:F1}\" "
                        "y2=\"{2:F1}\" class=\"{3}\"/>\n",
                        kLeft, kLeft + plotWidth, y(bytes), kind);
    os << llvm::formatv("<text x=\"{0}\" y=\"{1:F1}\" class=\"side\">{2} "
                        "{3}</text>\n",
                        kLeft + plotWidth + 6, y(bytes) + 4, text, mib(bytes));
  };
  line(entry.poolBytes, "pool", "pool");
  if (entry.poolLowerBound != entry.poolBytes)
    line(entry.poolLowerBound, "bound", "bound");

  os << llvm::formatv("<text x=\"{0:F0}\" y=\"{1}\" class=\"caption\">program "
                      "position (first to last use, {2}-{3})</text>\n",
                      kLeft + plotWidth / 2, bottom + 24, first, last - 1);
  os << llvm::formatv("<text x=\"{0}\" y=\"{1}\" class=\"caption\" "
                      "transform=\"rotate(-90 {0} {1})\">pool offset (MiB)</text>\n",
                      kLeft - 48, top + kTop + kPlotHeight / 2);
}

} // namespace

std::string emitMemoryPlot(const ArtifactInfo &info,
                           llvm::ArrayRef<EntryPointSignature> entries) {
  std::string svg;
  llvm::raw_string_ostream os(svg);
  int height = kPanelHeight * std::max<int>(entries.size(), 1) + 10;
  os << llvm::formatv(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" "
      "height=\"{1}\" viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\">\n",
      kWidth, height);
  os << "<title>aotc memory plan of " << escape(info.name) << "</title>\n"
     << "<style>\n"
        ".title { font-size: 15px; font-weight: bold; }\n"
        ".caption, .axis { font-size: 12px; fill: #444; }\n"
        ".caption { text-anchor: middle; }\n"
        ".axis { text-anchor: end; }\n"
        ".side { font-size: 12px; }\n"
        ".label { font-size: 11px; text-anchor: middle; fill: #fff; }\n"
        ".frame { fill: #f7f7f7; stroke: #999; }\n"
        ".buffer { stroke: #333; stroke-width: 0.5; fill-opacity: 0.85; }\n"
        ".pool { stroke: #000; stroke-width: 1.5; }\n"
        ".bound { stroke: #c00; stroke-width: 1.5; stroke-dasharray: 6 4; }\n"
        "</style>\n"
     << "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n";
  for (auto [index, entry] : llvm::enumerate(entries))
    panel(os, entry, static_cast<int>(index) * kPanelHeight);
  os << "</svg>\n";
  return svg;
}

llvm::Expected<std::string> renderPng(llvm::StringRef svg,
                                      llvm::StringRef rsvgConvert) {
  llvm::SmallString<128> svgPath, pngPath;
  auto failure = [](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
          "aotc-memory-plot", "svg", svgPath))
    return failure("cannot create a temporary file: " + ec.message());
  llvm::FileRemover removeSvg(svgPath);
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
          "aotc-memory-plot", "png", pngPath))
    return failure("cannot create a temporary file: " + ec.message());
  llvm::FileRemover removePng(pngPath);
  {
    std::error_code ec;
    llvm::raw_fd_ostream out(svgPath, ec);
    if (ec)
      return failure("cannot write '" + svgPath + "': " + ec.message());
    out << svg;
  }
  std::string message;
  llvm::StringRef args[] = {rsvgConvert, "--format=png", "--output",
                            pngPath, svgPath};
  int status = llvm::sys::ExecuteAndWait(rsvgConvert, args, std::nullopt, {},
                                         /*SecondsToWait=*/0,
                                         /*MemoryLimit=*/0, &message);
  if (status != 0) {
    std::string why = message.empty() ? "exit code " + std::to_string(status)
                                      : message;
    return failure(rsvgConvert + " failed: " + why);
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> png =
      llvm::MemoryBuffer::getFile(pngPath);
  if (!png)
    return failure("cannot read '" + pngPath + "': " +
                   png.getError().message());
  return (*png)->getBuffer().str();
}

} // namespace aotc
