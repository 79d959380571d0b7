"""check_memory_plot.py PLOT.svg REPORT.json: the --memory-plot picture is
well-formed SVG with one box per buffer of the --memory-report (same offset,
size and lifetime), boxes of buffers that share pool bytes at the same time
do not overlap, every box lies inside its panel's frame, and the pool line
is drawn. Exits 1 with a message otherwise."""
import json
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
svg, report = ET.parse(sys.argv[1]).getroot(), json.load(open(sys.argv[2]))


def fail(message):
    print(message)
    sys.exit(1)


rects = list(svg.iter(NS + "rect"))
frames = [r for r in rects if r.get("class") == "frame"]
boxes = [r for r in rects if r.get("class") == "buffer"]
entries = report["entry_points"]
if len(frames) != len(entries):
    fail(f"{len(frames)} panels for {len(entries)} entry points")
drawn = sorted((int(b.get("data-offset")), int(b.get("data-size")),
                int(b.get("data-first-use")), int(b.get("data-last-use")))
               for b in boxes)
planned = sorted((b["offset"], b["size"], b["first_use"], b["last_use"])
                 for e in entries for b in e["buffers"])
if drawn != planned:
    fail(f"boxes {drawn} differ from the planned buffers {planned}")


def extent(r):
    x, y = float(r.get("x")), float(r.get("y"))
    return x, y, x + float(r.get("width")), y + float(r.get("height"))


frame_extents = [extent(f) for f in frames]
for b in boxes:
    x0, y0, x1, y1 = extent(b)
    if not any(fx0 - 0.1 <= x0 and x1 <= fx1 + 0.1 and fy0 - 0.1 <= y0 and
               y1 <= fy1 + 0.1 for fx0, fy0, fx1, fy1 in frame_extents):
        fail(f"box {b.attrib} outside every frame")
# Live at once and sharing bytes would be a planning bug; drawn, it would
# be boxes covering each other by more than rounding.
for i, a in enumerate(boxes):
    for b in boxes[i + 1:]:
        ax0, ay0, ax1, ay1 = extent(a)
        bx0, by0, bx1, by1 = extent(b)
        if min(ax1, bx1) - max(ax0, bx0) > 0.5 and \
                min(ay1, by1) - max(ay0, by0) > 0.5:
            fail(f"boxes overlap: {a.attrib} and {b.attrib}")
if not [l for l in svg.iter(NS + "line") if l.get("class") == "pool"]:
    fail("no pool line")
print(f"{len(boxes)} boxes in {len(frames)} panels")
