#!/usr/bin/env python3
"""Writes a FIT activity laid out as watches and bike computers write one,
byte by byte after the FIT protocol, with what a converter like GPSBabel
leaves out: a 14-byte header with its CRC, developer fields (and their
description messages), compressed timestamp headers (one rolls over a
32-second boundary, one counts from an event's timestamp), a big-endian
definition, enhanced altitude and speed, GPS accuracy, records without a
position, redefined local types, a course point, and a second FIT file
chained after the first.

    python3 Scripts/make-fit-sample.py Tracks/fit/repeat-watch-features.fit

With --reference, it also reads the file back with fitdecode (`pip install
fitdecode`, a FIT reader written apart from Repeat) and writes what that
reads beside it, as `<file>.expected.fitdecode.csv`: the reference the
decoder's tests compare with. fitdecode is needed only to re-make that
file, not to test. (Garmin's Python FIT SDK refuses compressed timestamp
headers, so it cannot be the reference here.)
"""

import argparse
import struct
import sys

FIT_EPOCH = 631065600  # 1989-12-31T00:00:00Z in seconds since 1970
SEMICIRCLES = 2**31 / 180.0
ENUM, UINT8, UINT16, SINT32, UINT32, STRING, UINT32Z = 0x00, 0x02, 0x84, 0x85, 0x86, 0x07, 0x8C
PACK = {ENUM: "B", UINT8: "B", UINT16: "H", SINT32: "i", UINT32: "I", UINT32Z: "I"}
INVALID = {ENUM: 0xFF, UINT8: 0xFF, UINT16: 0xFFFF, SINT32: 0x7FFFFFFF, UINT32: 0xFFFFFFFF, UINT32Z: 0}


def crc16(data):
    """CRC-16, reflected polynomial 0xA001, zero start: the FIT CRC, bit by bit."""
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
    return crc


class Messages:
    """Definition and data messages, in order."""

    def __init__(self):
        self.bytes = bytearray()
        self.layouts = {}

    def define(self, local, global_number, fields, big_endian=False, developer_fields=()):
        header = 0x40 | local | (0x20 if developer_fields else 0)
        order = ">" if big_endian else "<"
        self.bytes += bytes([header, 0, 1 if big_endian else 0])
        self.bytes += struct.pack(order + "H", global_number) + bytes([len(fields)])
        for number, size, base in fields:
            self.bytes += bytes([number, size, base])
        if developer_fields:
            self.bytes += bytes([len(developer_fields)])
            for number, size, index in developer_fields:
                self.bytes += bytes([number, size, index])
        self.layouts[local] = (fields, order, developer_fields)

    def data(self, local, values, time_offset=None, developer=b""):
        """A data message; `time_offset` makes its header a compressed timestamp header."""
        fields, order, developer_fields = self.layouts[local]
        header = 0x80 | local << 5 | time_offset if time_offset is not None else local
        body = b""
        for (number, size, base), value in zip(fields, values, strict=True):
            if base == STRING:
                body += value.encode().ljust(size, b"\0")[:size]
            else:
                body += struct.pack(order + PACK[base], INVALID[base] if value is None else value)
        assert len(developer) == sum(size for _, size, _ in developer_fields)
        self.bytes += bytes([header]) + body + developer


def fit_file(messages):
    header = struct.pack("<BBHI4s", 14, 0x20, 2132, len(messages.bytes), b".FIT")
    header += struct.pack("<H", crc16(header))
    whole = header + bytes(messages.bytes)
    return whole + struct.pack("<H", crc16(whole))


def position(latitude, longitude):
    return round(latitude * SEMICIRCLES), round(longitude * SEMICIRCLES)


def altitude(metres):
    return round((metres + 500) * 5)


def first_file(start):
    m = Messages()
    m.define(0, 0, [(0, 1, ENUM), (1, 2, UINT16), (2, 2, UINT16), (3, 4, UINT32Z), (4, 4, UINT32)])
    m.data(0, [4, 1, 2697, 3_912_345_678, start])  # activity, Garmin
    # A developer's data id, then the description of its field 0: power, uint16.
    m.define(1, 207, [(3, 1, UINT8)])
    m.data(1, [0])
    m.define(1, 206, [(0, 1, UINT8), (1, 1, UINT8), (2, 1, UINT8), (3, 16, STRING), (8, 8, STRING)])
    m.data(1, [0, 0, UINT16, "Power", "watts"])
    m.define(2, 21, [(253, 4, UINT32), (0, 1, ENUM), (1, 1, ENUM)])
    m.data(2, [start, 0, 0])  # timer start
    # Records with a developer field: the first before the receiver's first fix.
    record = [(253, 4, UINT32), (0, 4, SINT32), (1, 4, SINT32), (78, 4, UINT32), (73, 4, UINT32), (31, 1, UINT8), (3, 1, UINT8)]
    m.define(0, 20, record, developer_fields=[(0, 2, 0)])
    m.data(0, [start, None, None, None, None, None, 92], developer=struct.pack("<H", 0))
    m.data(0, [start + 1, *position(52.5200, 13.4050), altitude(34.2), 2750, 4, 101], developer=struct.pack("<H", 180))
    # Compressed timestamps: local type 1 has no timestamp field; the
    # header's 5 bits complete the last full one (start + 1 ends in 30).
    m.define(1, 20, [(0, 4, SINT32), (1, 4, SINT32), (2, 2, UINT16), (6, 2, UINT16)])
    m.data(1, [*position(52.52003, 13.40506), altitude(34.4), 2800], time_offset=(start + 2) & 0x1F)
    m.data(1, [*position(52.52006, 13.40512), altitude(34.6), 2850], time_offset=(start + 3) & 0x1F)  # rolls over
    m.data(1, [*position(52.52012, 13.40524), altitude(35.0), 2900], time_offset=(start + 5) & 0x1F)
    # A pause: the event's full timestamp is the clock the next compressed time counts from.
    m.data(2, [start + 40, 0, 4])  # timer stop all
    m.data(1, [*position(52.52015, 13.40530), None, None], time_offset=(start + 41) & 0x1F)
    # A course point (a water stop), then a big-endian record definition.
    m.define(3, 32, [(1, 4, UINT32), (2, 4, SINT32), (3, 4, SINT32), (5, 1, ENUM), (6, 16, STRING)])
    m.data(3, [start + 50, *position(52.5210, 13.4070), 3, "Water"])
    m.define(2, 20, [(253, 4, UINT32), (0, 4, SINT32), (1, 4, SINT32), (2, 2, UINT16), (6, 2, UINT16), (31, 1, UINT8)], big_endian=True)
    m.data(2, [start + 60, *position(52.52100, 13.40700), altitude(36.0), 3100, 6])
    m.data(2, [start + 61, *position(-33.85680, 151.21530), altitude(2.0), None, None])
    return fit_file(m)


def second_file(start):
    m = Messages()
    m.define(0, 0, [(0, 1, ENUM), (1, 2, UINT16), (4, 4, UINT32)])
    m.data(0, [4, 255, start])  # a development manufacturer
    m.define(5, 20, [(253, 4, UINT32), (0, 4, SINT32), (1, 4, SINT32), (2, 2, UINT16)])
    m.data(5, [start, *position(52.5300, 13.4100), altitude(40.0)])
    m.data(5, [start + 1, *position(52.5301, 13.4102), None])
    return fit_file(m)


def reference(path):
    """What fitdecode (`pip install fitdecode`), a FIT reader that knows
    compressed timestamps and chained files, reads from the file, as CSV."""
    import fitdecode

    lines = ["file,time,lat,lon,ele,speed,accuracy,course_point"]
    number = -1

    def text(value):
        return "" if value is None else f"{value:g}"

    def time(frame):
        return frame.get_value("timestamp").isoformat().replace("+00:00", "Z")

    with fitdecode.FitReader(path, check_crc=fitdecode.CrcCheck.RAISE) as reader:
        for frame in reader:
            if isinstance(frame, fitdecode.FitHeader):
                number += 1
            if not isinstance(frame, fitdecode.FitDataMessage):
                continue
            if frame.name == "record":
                latitude = frame.get_value("position_lat", fallback=None)
                longitude = frame.get_value("position_long", fallback=None)
                if latitude is None or longitude is None:
                    lines.append(f"{number},{time(frame)},,,,,,")
                    continue
                elevation = frame.get_value("enhanced_altitude", fallback=None)
                if elevation is None:
                    elevation = frame.get_value("altitude", fallback=None)
                speed = frame.get_value("enhanced_speed", fallback=None)
                if speed is None:
                    speed = frame.get_value("speed", fallback=None)
                values = [
                    time(frame),
                    f"{latitude / SEMICIRCLES:.9f}",
                    f"{longitude / SEMICIRCLES:.9f}",
                    text(elevation),
                    text(speed),
                    text(frame.get_value("gps_accuracy", fallback=None)),
                ]
                lines.append(f"{number}," + ",".join(values) + ",")
            elif frame.name == "course_point":
                lines.append(
                    f"{number},{time(frame)},{frame.get_value('position_lat') / SEMICIRCLES:.9f},"
                    f"{frame.get_value('position_long') / SEMICIRCLES:.9f},,,,{frame.get_value('name')}"
                )
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("output", help="the .fit file to write")
    parser.add_argument("--reference", action="store_true", help="also write fitdecode's reading beside it")
    arguments = parser.parse_args()
    start = 1714557600 + 29 - FIT_EPOCH  # 2024-05-01T10:00:29Z, whose seconds end in 29 (of 32)
    with open(arguments.output, "wb") as output:
        output.write(first_file(start) + second_file(start + 600))
    if arguments.reference:
        with open(arguments.output + ".expected.fitdecode.csv", "w") as expected:
            expected.write(reference(arguments.output))


if __name__ == "__main__":
    sys.exit(main())
