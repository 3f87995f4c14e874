import GeoCore
import Reporting
import Testing

@Suite struct MarkupTests {
    @Test func hostileTextIsShownNotRun() {
        var markup = Markup()
        markup.element("h1", ["title": "\"quoted\" & 'single'"], text: "<script>alert(1)</script>")
        #expect(
            markup.text
                == "<h1 title=\"&quot;quoted&quot; &amp; &#39;single&#39;\">&lt;script&gt;alert(1)&lt;/script&gt;</h1>")
    }

    @Test func controlCharactersThatXMLForbidsBecomeReplacementCharacters() {
        #expect(Escape.text("a\u{0}b\u{1B}c\td\ne") == "a\u{FFFD}b\u{FFFD}c\td\ne")
        #expect(Escape.text("Kreuzberg ✓ Апте́ка") == "Kreuzberg ✓ Апте́ка")
    }

    @Test func elementsCloseAndAttributesKeepTheirOrder() {
        var svg = Markup()
        svg.start("g", ["class": "track", "fill": "none"])
        svg.leaf("circle", ["cx": "10", "cy": "20", "r": "3"])
        svg.end("g")
        #expect(svg.text == "<g class=\"track\" fill=\"none\"><circle cx=\"10\" cy=\"20\" r=\"3\"/></g>")
    }

    @Test(arguments: [
        (12.30, 2, "12.3"), (-0.04, 1, "0"), (0.05, 1, "0.1"), (1234.0, 0, "1234"), (-3.14159, 3, "-3.142"),
        (2.0, 1, "2"), (0.001, 3, "0.001"), (Double.nan, 1, "0"),
    ])
    func numbers(value: Double, decimals: Int, text: String) {
        #expect(Format.number(value, decimals: decimals) == text)
    }

    @Test func distancesTimesAndDurations() {
        #expect(Format.metres(200) == "200 m")
        #expect(Format.metres(1500) == "1.5 km")
        #expect(Format.metres(20_000) == "20 km")
        let time = Timestamp(secondsSince1970: 1_607_667_517)  // 2020-12-11T06:18:37Z
        #expect(Format.minute(time) == "2020-12-11 06:18")
        #expect(Format.second(time) == "2020-12-11 06:18:37 UTC")
        #expect(Format.minute(Timestamp(secondsSince1970: -1)) == "1969-12-31 23:59")
        #expect(Format.duration(45) == "45 s")
        #expect(Format.duration(360) == "6 min")
        #expect(Format.duration(5.5 * 3600) == "5.5 h")
    }

    /// A task's dates may lie in any year: they are written as the years
    /// a timestamp holds are, in the proleptic Gregorian calendar.
    @Test func timesBeyondTheTimestampsYears() {
        #expect(Format.minute(secondsSince1970: 16_725_225_600) == "2500-01-01 00:00")
        #expect(Format.minute(secondsSince1970: -62_135_596_800 + 7 * 86_400 + 60) == "0001-01-08 00:01")
        #expect(Format.minute(secondsSince1970: -62_167_219_200) == "0000-01-01 00:00")
        // A billion years on, where durations end.
        #expect(Format.minute(secondsSince1970: 31_556_952e9) == "1000001970-01-01 00:00")
        #expect(Format.minute(secondsSince1970: 1e19) == "far in the future")
        #expect(Format.minute(secondsSince1970: -1e19) == "far in the past")
        // Where the day's arithmetic would have overflowed.
        #expect(Format.minute(secondsSince1970: -0x1p63 + 4096) == "far in the past")
    }
}
