#!/usr/bin/env python3
"""Writes Tracks/cat-medicine/drives.gpx: the real Višnjan car drive
(Tracks/gpx/gpxpy-visnjan-car.gpx, Garmin eTrex 20x, 2020-12-18) three times,
shifted in time to -7 days, 0 and +31 days, as the cat-medicine scenario's
passes by the pharmacy in weeks 9, 10 and after the due date. Positions and
elevations are the recording's own; only the dates move."""
import datetime
import pathlib
import re

root = pathlib.Path(__file__).resolve().parent.parent
source = (root / "Tracks/gpx/gpxpy-visnjan-car.gpx").read_text(encoding="utf-8")
points = re.findall(
    r'<trkpt lat="([^"]+)" lon="([^"]+)">\s*<ele>([^<]+)</ele>\s*<time>([^<]+)</time>', source)
assert len(points) == 104, len(points)

lines = ['<?xml version="1.0" encoding="UTF-8"?>',
         '<gpx version="1.1" creator="Scripts/make-cat-medicine-drives.py" xmlns="http://www.topografix.com/GPX/1/1">']
for name, days in [("week 9", -7), ("week 10", 0), ("after the due date", 31)]:
    lines.append(f"  <trk><name>{name}</name><trkseg>")
    for lat, lon, ele, time in points:
        stamp = datetime.datetime.strptime(time, "%Y-%m-%dT%H:%M:%SZ") + datetime.timedelta(days=days)
        lines.append(f'    <trkpt lat="{lat}" lon="{lon}"><ele>{ele}</ele>'
                     f'<time>{stamp.strftime("%Y-%m-%dT%H:%M:%SZ")}</time></trkpt>')
    lines.append("  </trkseg></trk>")
lines.append("</gpx>")
(root / "Tracks/cat-medicine/drives.gpx").write_text("\n".join(lines) + "\n", encoding="utf-8")
