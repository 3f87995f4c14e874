import GeoCore

/// A sentence type the table decodes.
enum NMEASentenceType {
    case gga, rmc, gll, vtg, gsa, zda, gns

    /// The type of a sentence type after the talker (`GGA`), packed as
    /// three ASCII bytes; `nil` for one the table does not decode.
    @inline(__always)
    init?(packed: UInt32) {
        switch packed {
        case 0x47_47_41: self = .gga
        case 0x52_4D_43: self = .rmc
        case 0x47_4C_4C: self = .gll
        case 0x56_54_47: self = .vtg
        case 0x47_53_41: self = .gsa
        case 0x5A_44_41: self = .zda
        case 0x47_4E_53: self = .gns
        default: return nil
        }
    }

    /// The number of fields (address included) below which the sentence is reported as short.
    var minimumFieldCount: Int {
        switch self {
        case .gga, .gns: 7
        case .rmc: 10
        case .gll, .zda: 5
        case .vtg: 2
        case .gsa: 3
        }
    }
}

/// Metres per second in one knot (1852 m per hour).
let metresPerSecondPerKnot = 1852.0 / 3600.0

/// The sentence types that feed fixes, after gpsd's `nmea_phrase[]`:
/// GGA, GNS, RMC, GLL (time + position), VTG (speed and course), GSA
/// (HDOP), ZDA (date). Anything else is counted by type and ignored.
enum NMEASentenceTable {
    /// Applies a sentence of `type`; returns a problem to report, or
    /// `nil`. A switch, not a table of closures: calling through a
    /// closure retained and released its context for every sentence.
    @inline(__always)
    static func decode(
        _ type: NMEASentenceType, _ f: NMEAFields, _ epoch: inout NMEAEpochAssembler, _ location: FeedLocation,
        _ batch: inout FeedBatch
    ) -> String? {
        switch type {
        case .gga: decodeGGA(f, &epoch, location, &batch)
        case .rmc: decodeRMC(f, &epoch, location, &batch)
        case .gll: decodeGLL(f, &epoch, location, &batch)
        case .vtg: decodeVTG(f, &epoch, location, &batch)
        case .gsa: decodeGSA(f, &epoch, location, &batch)
        case .zda: decodeZDA(f, &epoch, location, &batch)
        case .gns: decodeGNS(f, &epoch, location, &batch)
        }
    }

    /// Enters the epoch of the time in field `index`; a problem if the time is unreadable.
    private static func enterEpoch(
        _ f: NMEAFields, time index: Int, _ epoch: inout NMEAEpochAssembler, _ location: FeedLocation,
        _ batch: inout FeedBatch
    ) -> String?? {
        switch epoch.times.value(of: f, index, reading: { $0.timeOfDay($1) }) {
        case .value(let time):
            epoch.enter(timeOfDay: time.nanoseconds, fractionDigits: time.fractionDigits, at: location, into: &batch)
            return .some(nil)
        case .absent:
            return nil
        case .invalid:
            return .some("time '\(f.text(index))' is not hhmmss[.ss]")
        }
    }

    /// Reads a position from latitude/longitude field pairs; a problem text if unreadable.
    private static func position(_ f: NMEAFields, latitude: Int) -> (Coordinate?, String?) {
        let lat = f.angle(latitude, hemisphere: latitude + 1, limit: 90)
        let lon = f.angle(latitude + 2, hemisphere: latitude + 3, limit: 180)
        switch (lat, lon) {
        case (.value(let a), .value(let b)):
            return (Coordinate(latitude: a, longitude: b), nil)
        case (.absent, _), (_, .absent):
            return (nil, nil)
        default:
            return (
                nil,
                "position '\(f.text(latitude)),\(f.text(latitude + 1)),\(f.text(latitude + 2)),\(f.text(latitude + 3))' is not ddmm.mmmm,N|S,dddmm.mmmm,E|W"
            )
        }
    }

    static func decodeGGA(
        _ f: NMEAFields, _ epoch: inout NMEAEpochAssembler, _ location: FeedLocation, _ batch: inout FeedBatch
    ) -> String? {
        guard let entered = enterEpoch(f, time: 1, &epoch, location, &batch) else {
            return f.character(6) == 0x30 || f.isEmpty(6) ? nil : "GGA without a time"
        }
        if let problem = entered { return problem }
        guard case .value(let quality) = f.integer(6) else { return "fix quality '\(f.text(6))' is not a number" }
        guard (1...6).contains(quality) else {
            epoch.markInvalid(quality == 0 ? "GGA fix quality 0 (no fix)" : "GGA fix quality \(quality) (manual or simulated)")
            return nil
        }
        return offerFix(f, &epoch, withoutPosition: "GGA with fix quality \(quality) but no position")
    }

    /// The fix part GGA and GNS share: the position in fields 2–5 (ranked
    /// as GGA's), HDOP in 8 and altitude in 9; a problem when the position
    /// is unreadable or, `withoutPosition`, absent.
    private static func offerFix(
        _ f: NMEAFields, _ epoch: inout NMEAEpochAssembler, withoutPosition: @autoclosure () -> String
    ) -> String? {
        let (coordinate, problem) = position(f, latitude: 2)
        if let problem { return problem }
        guard let coordinate else { return withoutPosition() }
        epoch.offerPosition(coordinate, from: .gga)
        epoch.update { e in
            if case .value(let hdop) = f.number(8) {
                e.hdop = hdop
                e.hdopFromGGA = true
            }
            if case .value(let altitude) = f.number(9) { e.elevation = altitude }
        }
        return nil
    }

    /// GNS, the multi-constellation fix of modern receivers: read like GGA
    /// (time, position, satellites, HDOP, altitude), its mode field one
    /// letter per constellation — a fix when any of them is A, D, P, R, F
    /// or E (gpsd's reading); N everywhere is no fix, M or S manual or
    /// simulated.
    static func decodeGNS(
        _ f: NMEAFields, _ epoch: inout NMEAEpochAssembler, _ location: FeedLocation, _ batch: inout FeedBatch
    ) -> String? {
        guard let entered = enterEpoch(f, time: 1, &epoch, location, &batch) else {
            return f.isEmpty(2) ? nil : "GNS without a time"
        }
        if let problem = entered { return problem }
        // One mode letter per constellation: a fix when any of them has one.
        let mode = f.range(6)
        let hasFix = (mode.start..<max(mode.start, mode.end)).contains { "ADPRFE".utf8.contains(f.bytes[$0]) }
        guard hasFix else {
            let text = f.text(6)
            epoch.markInvalid(
                text.isEmpty || text.allSatisfy({ $0 == "N" })
                    ? "GNS mode \(text.isEmpty ? "empty" : text) (no fix)" : "GNS mode \(text) (manual or simulated)")
            return nil
        }
        return offerFix(f, &epoch, withoutPosition: "GNS with mode \(f.text(6)) but no position")
    }

    static func decodeRMC(
        _ f: NMEAFields, _ epoch: inout NMEAEpochAssembler, _ location: FeedLocation, _ batch: inout FeedBatch
    ) -> String? {
        guard let entered = enterEpoch(f, time: 1, &epoch, location, &batch) else {
            return f.character(2) == 0x56 ? nil : "RMC without a time"
        }
        if let problem = entered { return problem }
        if !f.isEmpty(9) {
            guard let day = epoch.dates.value(of: f, 9, reading: { dayFromDDMMYY($0, $1) }) else {
                return "date '\(f.text(9))' is not ddmmyy"
            }
            epoch.update { $0.date = day }
        }
        let status = f.character(2)
        let mode = f.character(12)
        guard status == 0x41, mode != 0x4E else {
            epoch.markInvalid(
                status == 0x41 ? "RMC mode N (not valid)" : "RMC status \(status == 0 ? "empty" : f.text(2)) (no fix)")
            return nil
        }
        // A GGA position outranks RMC's: it is not read twice.
        if epoch.positionSource != .gga {
            let (coordinate, problem) = position(f, latitude: 3)
            if let problem { return problem }
            guard let coordinate else { return "RMC with status A but no position" }
            epoch.offerPosition(coordinate, from: .rmc)
        }
        epoch.update { e in
            if case .value(let knots) = f.number(7) { e.speed = knots * metresPerSecondPerKnot }
            if case .value(let course) = f.number(8) { e.course = course }
        }
        return nil
    }

    static func decodeGLL(
        _ f: NMEAFields, _ epoch: inout NMEAEpochAssembler, _ location: FeedLocation, _ batch: inout FeedBatch
    ) -> String? {
        guard let entered = enterEpoch(f, time: 5, &epoch, location, &batch) else {
            return f.character(6) == 0x56 ? nil : "GLL without a time"
        }
        if let problem = entered { return problem }
        let status = f.character(6)
        guard status == 0x41 || status == 0, f.character(7) != 0x4E else {
            epoch.markInvalid("GLL status \(f.text(6)) (no fix)")
            return nil
        }
        let (coordinate, problem) = position(f, latitude: 1)
        if let problem { return problem }
        guard let coordinate else { return nil }
        epoch.offerPosition(coordinate, from: .gll)
        return nil
    }

    static func decodeVTG(
        _ f: NMEAFields, _ epoch: inout NMEAEpochAssembler, _ location: FeedLocation, _ batch: inout FeedBatch
    ) -> String? {
        epoch.update { e in
            if case .value(let course) = f.number(1) { e.course = e.course ?? course }
            if case .value(let knots) = f.number(5) {
                e.speed = e.speed ?? knots * metresPerSecondPerKnot
            } else if case .value(let kmh) = f.number(7) {
                e.speed = e.speed ?? kmh / 3.6
            }
        }
        return nil
    }

    static func decodeGSA(
        _ f: NMEAFields, _ epoch: inout NMEAEpochAssembler, _ location: FeedLocation, _ batch: inout FeedBatch
    ) -> String? {
        epoch.update { e in
            if !e.hdopFromGGA, case .value(let hdop) = f.number(16) { e.hdop = hdop }
        }
        return nil
    }

    static func decodeZDA(
        _ f: NMEAFields, _ epoch: inout NMEAEpochAssembler, _ location: FeedLocation, _ batch: inout FeedBatch
    ) -> String? {
        guard let entered = enterEpoch(f, time: 1, &epoch, location, &batch) else { return "ZDA without a time" }
        if let problem = entered { return problem }
        guard case .value(let day) = f.integer(2), case .value(let month) = f.integer(3),
            case .value(let year) = f.integer(4), (1...12).contains(month), (1980...2200).contains(year),
            day >= 1, day <= CivilCalendar.daysInMonth(year: year, month: month)
        else {
            return f.isEmpty(2) && f.isEmpty(4) ? nil : "date '\(f.text(2)),\(f.text(3)),\(f.text(4))' is not dd,mm,yyyy"
        }
        epoch.update { $0.date = CivilCalendar.days(year: year, month: month, day: day) }
        return nil
    }

    /// Two-digit years pivot at 80: `80`…`99` are 1980…1999 (GPS began in
    /// 1980), `00`…`79` are 2000…2079. So `98` is 1998, as the GPX that
    /// GPSBabel's nmeadate test came from says (GPSBabel 1.8.0 reads 2098).
    static func dayFromDDMMYY(_ f: NMEAFields, _ index: Int) -> Int? {
        let r = f.range(index)
        guard r.end - r.start == 6, case .value(let value) = f.integer(index) else { return nil }
        let day = value / 10000, month = value / 100 % 100, twoDigitYear = value % 100
        let year = twoDigitYear < 80 ? 2000 + twoDigitYear : 1900 + twoDigitYear
        guard (1...12).contains(month), day >= 1, day <= CivilCalendar.daysInMonth(year: year, month: month) else { return nil }
        return CivilCalendar.days(year: year, month: month, day: day)
    }
}
